// The admin session as React state: re-renders on sign-in, sign-out, another tab, and expiry.
import { useEffect, useSyncExternalStore } from "react";
import { getAdminSession, onAdminSessionChange } from "./session.js";

const EXPIRY_EVENT = "bookstore:admin-session-expired";

function subscribe(listener) {
  window.addEventListener(EXPIRY_EVENT, listener);
  const unsubscribe = onAdminSessionChange(listener);
  return () => {
    window.removeEventListener(EXPIRY_EVENT, listener);
    unsubscribe();
  };
}

/** The current admin session or null; a session that expires while a screen is open ends there. */
export function useAdminSession() {
  const session = useSyncExternalStore(subscribe, getAdminSession, () => null);
  const expiresAt = session?.expiresAt;
  useEffect(() => {
    if (expiresAt == null) return undefined;
    // setTimeout holds at most ~24.8 days; a longer session is re-checked on the next render.
    const delay = Math.min(Math.max(expiresAt - Date.now(), 0) + 500, 2 ** 31 - 1);
    const timer = window.setTimeout(() => window.dispatchEvent(new Event(EXPIRY_EVENT)), delay);
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
  return session;
}
