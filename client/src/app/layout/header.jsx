// The site header: brand, search, main navigation, cart with its count, the account menu, and a
// phone menu with every shelf and the shopper's own pages.
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Link, NavLink, useLocation, useNavigate } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { useCart } from "../../features/cart/cart-context.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { UserMenu } from "../../features/auth/components/user-menu.jsx";
import { SearchSuggest } from "../../features/catalogue/components/search-suggest.jsx";

// `more`: only in the phone menu (the wide header has room for the first four).
const NAV = [
  { label: "Home", to: paths.home(), end: true },
  { label: "Books", to: paths.books() },
  { label: "Categories", to: paths.categories(), more: true },
  { label: "Exams", to: paths.exams(), more: true },
  { label: "Best Sellers", to: paths.bestsellers(), more: true },
  { label: "New Releases", to: paths.newReleases(), more: true },
  { label: "About", to: paths.about() },
  { label: "Contact", to: paths.contact() },
];

/** The phone menu's account links. A signed-in shopper's own pages are in the account menu beside them
 * (as on the wide header), so the phone menu lists each page once. */
function AccountLinks() {
  const { isSignedIn } = useAuth();
  return (
    <nav className="header__account" aria-label="Your account">
      <ul>
        {!isSignedIn && (
          <>
            <li><NavLink to={paths.orders()}>My Orders</NavLink></li>
            <li><NavLink to={paths.wishlist()}>Wishlist</NavLink></li>
          </>
        )}
        <li><NavLink to={paths.orderLookup()}>Track an Order</NavLink></li>
      </ul>
    </nav>
  );
}

/** The search box on every page: inline on wide screens, behind a search button on phones. */
function HeaderSearch() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // A search or a picked book leaves the phone's search row closed: reset while rendering, as
  // lib/use-resetting-state.js does (written out here so the first page's JavaScript gains no chunk).
  const [shown, setShown] = useState(false);
  const [shownAt, setShownAt] = useState(pathname + search);
  if (shownAt !== pathname + search) {
    setShownAt(pathname + search);
    setShown(false);
  }
  const inputRef = useRef(null);
  const toggleRef = useRef(null);
  const boxId = useId();

  function toggle() {
    // Shown and focused in the same tap: phones open the keyboard only for a focus the tap itself made.
    flushSync(() => setShown(!shown));
    if (!shown) inputRef.current?.focus();
  }

  function onKey(event) {
    if (event.key === "Escape" && shown) {
      event.stopPropagation();
      setShown(false);
      toggleRef.current?.focus();
    }
  }

  return (
    <>
      <button ref={toggleRef} type="button" className="header__search-toggle" aria-expanded={shown} aria-controls={boxId}
        onClick={toggle}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" focusable="false">
          <path fill="currentColor" d="M10 2a8 8 0 0 1 6.3 12.9l5.4 5.4-1.4 1.4-5.4-5.4A8 8 0 1 1 10 2Zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12Z" />
        </svg>
        <span className="sr-only">Show search</span>
      </button>
      <div id={boxId} className={`header__search ${shown ? "header__search--shown" : ""}`} onKeyDown={onKey}>
        <SearchSuggest name="Site" label="Search the shop" labelHidden inputRef={inputRef}
          onSearch={(text) => navigate(paths.books({ search: text }))}
          onPick={(book) => navigate(paths.book(book._id))} />
      </div>
    </>
  );
}

function CartLink() {
  const { count } = useCart();
  const label = count === 1 ? "Cart, 1 item" : `Cart, ${count} items`;
  return (
    <Link className="header__cart" to={paths.cart()} aria-label={label}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" focusable="false">
        <path fill="currentColor" d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM3 2h2.2l.9 2H21a1 1 0 0 1 .9 1.4l-3.6 7A2 2 0 0 1 16.5 13H8.1l-1.1 2H19v2H7a2 2 0 0 1-1.8-2.9l1.4-2.6L3.6 4H1V2Z" />
      </svg>
      <span className="header__cart-count" aria-hidden="true">{count}</span>
    </Link>
  );
}

export function Header() {
  const { pathname, search } = useLocation();
  // A followed link closes the mobile menu (reset while rendering, as above).
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuAt, setMenuAt] = useState(pathname + search);
  if (menuAt !== pathname + search) {
    setMenuAt(pathname + search);
    setMenuOpen(false);
  }
  const menuId = useId();
  const toggleRef = useRef(null);

  function onMenuKey(event) {
    if (event.key === "Escape" && menuOpen) {
      setMenuOpen(false);
      toggleRef.current?.focus();
    }
  }

  return (
    <header className={`header ${menuOpen ? "header--open" : ""}`} onKeyDown={onMenuKey}>
      <div className="container header__inner">
        <button ref={toggleRef} type="button" className="header__toggle" aria-expanded={menuOpen} aria-controls={menuId}
                onClick={() => setMenuOpen(!menuOpen)}>
          <span className="header__toggle-bars burger" aria-hidden="true" />
          <span className="sr-only">Menu</span>
        </button>
        <Link className="header__brand" to={paths.home()}>
          <span className="header__logo" aria-hidden="true">B</span>
          Bookstore
        </Link>
        <HeaderSearch />
        <div id={menuId} className="header__menu">
          <nav className="header__nav" aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.label} className={item.more ? "header__more" : undefined}>
                  <NavLink to={item.to} end={item.end}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <AccountLinks />
          <UserMenu />
        </div>
        <CartLink />
      </div>
    </header>
  );
}
