// The administrator's session, kept apart from the shopper's under adminToken and adminUser (spec §3).
const TOKEN_KEY = "adminToken";
const USER_KEY = "adminUser";
const CHANGE_EVENT = "bookstore:admin-session-change";

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage can be disabled (private mode, blocked cookies)
  }
}

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
  const token = read(TOKEN_KEY);
  const userText = read(USER_KEY);
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

export function saveAdminSession({ token, user }) {
  window.localStorage.setItem(TOKEN_KEY, token);
  window.localStorage.setItem(USER_KEY, JSON.stringify(user));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function clearAdminSession() {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(USER_KEY);
  } catch {
    // nothing stored, nothing to clear
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Call listener when the admin session changes here or in another tab; returns the unsubscribe. */
export function onAdminSessionChange(listener) {
  const onStorage = (event) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", onStorage);
  };
}
