// The header's account corner: the signed-in shopper's menu, or Login and Sign Up buttons.
import { useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { useAuth } from "../auth-context.jsx";

/** A disclosure menu: Enter/Space/ArrowDown open it, arrows move, Escape closes, Tab leaves. */
export function UserMenu() {
  const { user, isSignedIn, isAdmin, logout, openAuthModal } = useAuth();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const root = useRef(null);
  const button = useRef(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event) => {
      if (!root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  if (!isSignedIn) {
    return (
      <div className="user-menu user-menu--guest">
        <button type="button" className="button button--secondary button--small" onClick={() => openAuthModal("login")}>
          Login
        </button>
        <button type="button" className="button button--small" onClick={() => openAuthModal("register")}>
          Sign Up
        </button>
      </div>
    );
  }

  const items = () => [...(root.current?.querySelectorAll(".user-menu__item") ?? [])];
  const focusItem = (index) => {
    const list = items();
    list[(index + list.length) % list.length]?.focus();
  };

  function onButtonKey(event) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      requestAnimationFrame(() => focusItem(0));
    }
  }

  function onMenuKey(event) {
    const list = items();
    const index = list.indexOf(document.activeElement);
    if (event.key === "ArrowDown") { event.preventDefault(); focusItem(index + 1); }
    if (event.key === "ArrowUp") { event.preventDefault(); focusItem(index - 1); }
    if (event.key === "Home") { event.preventDefault(); focusItem(0); }
    if (event.key === "End") { event.preventDefault(); focusItem(-1); }
    if (event.key === "Escape") {
      setOpen(false);
      button.current?.focus();
    }
  }

  async function signOut() {
    setOpen(false);
    await logout();
    navigate(paths.home());
  }

  const close = () => setOpen(false);
  return (
    <div className="user-menu" ref={root} onKeyDown={onMenuKey}
      onBlur={(event) => !root.current?.contains(event.relatedTarget) && setOpen(false)}>
      <button type="button" ref={button} className="user-menu__button" aria-expanded={open} aria-controls={menuId}
        onClick={() => setOpen(!open)} onKeyDown={onButtonKey}>
        <span className="user-menu__avatar" aria-hidden="true">{(user.firstName || user.email || "?").slice(0, 1).toUpperCase()}</span>
        <span className="user-menu__name"><span className="sr-only">Account menu for </span>{user.firstName || user.email}</span>
        <span className="user-menu__caret" aria-hidden="true">▾</span>
      </button>
      <ul id={menuId} className="user-menu__list" hidden={!open}>
        <li><Link className="user-menu__item" to={paths.profile()} onClick={close}>My Profile</Link></li>
        <li><Link className="user-menu__item" to={paths.orders()} onClick={close}>My Orders</Link></li>
        <li><Link className="user-menu__item" to={paths.wishlist()} onClick={close}>Wishlist</Link></li>
        {isAdmin && <li><Link className="user-menu__item" to={paths.admin()} onClick={close}>Admin Dashboard</Link></li>}
        <li><button type="button" className="user-menu__item" onClick={signOut}>Logout</button></li>
      </ul>
    </div>
  );
}
