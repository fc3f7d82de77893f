// The administrator's session, kept apart from the shopper's under adminToken and adminUser (product §2.5).
import { createSessionStore } from "../../lib/auth-storage.js";

const store = createSessionStore({
  tokenKey: "adminToken", userKey: "adminUser", changeEvent: "bookstore:admin-session-change",
});

/** When the token stops working (ms since the epoch), from its `exp` claim; null when unreadable. */
export function tokenExpiresAt(token) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const { exp } = JSON.parse(atob(payload));
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}

// The same object for as long as storage holds the same values, as useSyncExternalStore needs.
let cached = { token: undefined, userText: undefined, session: null };

/**
 * The stored admin session {token, user, expiresAt}, or null when missing, expired or not an
 * admin's. The server checks the role on every call; this only spares a round trip.
 */
export function getAdminSession() {
  const token = store.getToken();
  const userText = store.getUserText();
  if (token !== cached.token || userText !== cached.userText) {
    let user = null;
    try {
      user = JSON.parse(userText);
    } catch {
      user = null;
    }
    const expiresAt = token ? tokenExpiresAt(token) : null;
    const usable = Boolean(token && user?.role === "admin");
    cached = { token, userText, session: usable ? { token, user, expiresAt } : null };
  }
  const { session } = cached;
  if (session?.expiresAt != null && session.expiresAt <= Date.now()) return null;
  return session;
}

export const saveAdminSession = store.save;
export const clearAdminSession = store.clear;
/** Call listener when the admin session changes here or in another tab; returns the unsubscribe. */
export const onAdminSessionChange = store.onChange;
