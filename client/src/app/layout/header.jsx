// The site header: brand, main navigation, cart with its count, the account menu, and a mobile menu.
import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { useCart } from "../../features/cart/cart-context.jsx";
import { UserMenu } from "../../features/auth/components/user-menu.jsx";

const NAV = [
  { label: "Home", to: paths.home(), end: true },
  { label: "Books", to: paths.books() },
  { label: "About", to: paths.about() },
  { label: "Contact", to: paths.contact() },
];

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
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname, search } = useLocation();
  const menuId = useId();
  const toggleRef = useRef(null);

  // A followed link closes the mobile menu.
  useEffect(() => setMenuOpen(false), [pathname, search]);

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
          <span className="header__toggle-bars" aria-hidden="true" />
          <span className="sr-only">Menu</span>
        </button>
        <Link className="header__brand" to={paths.home()}>
          <span className="header__logo" aria-hidden="true">B</span>
          Bookstore
        </Link>
        <div id={menuId} className="header__menu">
          <nav className="header__nav" aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.label}>
                  <NavLink to={item.to} end={item.end}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <UserMenu />
        </div>
        <CartLink />
      </div>
    </header>
  );
}
