// The admin frame: the side menu beside the current screen; without an admin session, the login.
import { Suspense, useState } from "react";
import { useResettingState } from "../../../lib/use-resetting-state.js";
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from "../../../lib/router.jsx";
import { adminPaths } from "../paths.js";
import { clearAdminSession } from "../session.js";
import { logoutAdmin } from "../api.js";
import { useAdminSession } from "../use-admin-session.js";
import { Icon } from "./icon.jsx";

const MENU = [
  { label: "Dashboard", to: adminPaths.dashboard(), end: true, icon: "dashboard" },
  { label: "Manage Books", to: adminPaths.books(), icon: "books" },
  { label: "Manage Orders", to: adminPaths.orders(), icon: "orders" },
  { label: "Returns", to: adminPaths.returns(), icon: "orders" },
  { label: "Contact Messages", to: adminPaths.contacts(), icon: "mail" },
  { label: "Coupons", to: adminPaths.coupons(), icon: "coupon" },
  { label: "Kits", to: adminPaths.kits(), icon: "books" },
  { label: "Reviews", to: adminPaths.reviews(), icon: "star" },
  { label: "Shipping & payments", to: adminPaths.shopSettings(), icon: "truck" },
  { label: "Newsletter", to: adminPaths.newsletter(), icon: "newsletter" },
  { label: "Audit log", to: adminPaths.audit(), icon: "audit" },
];

export function AdminLayout() {
  const session = useAdminSession();
  const location = useLocation();
  const navigate = useNavigate();
  // A phone's menu closes once the admin has picked a screen.
  const [menuOpen, setMenuOpen] = useResettingState(false, location.pathname);
  const [leaving, setLeaving] = useState(false); // signing out: go home, not to the login

  if (!session) {
    return leaving ? null : <Navigate to={adminPaths.login(location.pathname + location.search)} replace />;
  }

  const logout = () => {
    setLeaving(true);
    logoutAdmin();
    // The shopper's own session (another key) stays: signing out of the admin area is not signing out of the shop.
    clearAdminSession();
    navigate("/", { replace: true });
  };

  return (
    <div className="adm">
      <a className="adm-skip" href="#admin-main">Skip to content</a>
      <aside className="adm-side">
        <div className="adm-side__top">
          <Link className="adm-side__brand" to={adminPaths.dashboard()}>
            <span className="adm-side__logo" aria-hidden="true">B</span>
            Bookstore Admin
          </Link>
          <button type="button" className="adm-side__toggle" aria-expanded={menuOpen} aria-controls="admin-menu"
            onClick={() => setMenuOpen((open) => !open)}>
            <span className="adm-side__burger burger" aria-hidden="true" />
            Menu
          </button>
        </div>
        <nav id="admin-menu" className={`adm-side__menu${menuOpen ? " adm-side__menu--open" : ""}`} aria-label="Admin">
          <ul>
            {MENU.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  <Icon name={item.icon} />
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="adm-side__foot">
            <p className="adm-side__who">Signed in as <strong>{session.user?.email}</strong></p>
            <Link to="/" className="adm-side__store"><Icon name="store" />Back to Store</Link>
            <button type="button" className="adm-button adm-button--secondary adm-side__logout" onClick={logout}>
              <Icon name="logout" />Logout
            </button>
          </div>
        </nav>
      </aside>
      <main id="admin-main" className="adm-main" tabIndex={-1}>
        {/* Admin screens share one chunk; a screen's first render may still suspend briefly. */}
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
