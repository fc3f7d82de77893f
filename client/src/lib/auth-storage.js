// Signed-in sessions kept in localStorage: the shopper's under "token" and "user", and (through
// createSessionStore) the administrator's under keys of its own.

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage can be disabled (private mode, blocked cookies)
  }
}

/** A token and user pair under two storage keys, with change events for this tab and others. */
export function createSessionStore({ tokenKey, userKey, changeEvent }) {
  return {
    getToken: () => read(tokenKey),
    /** The stored user as text, for callers that cache on it; null when absent. */
    getUserText: () => read(userKey),
    /** The stored user, or null when absent or unreadable. */
    getUser() {
      try {
        return JSON.parse(read(userKey)) ?? null;
      } catch {
        return null;
      }
    },
    save({ token, user }) {
      window.localStorage.setItem(tokenKey, token);
      window.localStorage.setItem(userKey, JSON.stringify(user));
      window.dispatchEvent(new Event(changeEvent));
    },
    clear() {
      try {
        window.localStorage.removeItem(tokenKey);
        window.localStorage.removeItem(userKey);
      } catch {
        // nothing stored, nothing to clear
      }
      window.dispatchEvent(new Event(changeEvent));
    },
    /** Call listener whenever the session changes, here or in another tab; returns the unsubscribe. */
    onChange(listener) {
      const onStorage = (event) => {
        if (event.key === null || event.key === tokenKey || event.key === userKey) listener();
      };
      window.addEventListener(changeEvent, listener);
      window.addEventListener("storage", onStorage);
      return () => {
        window.removeEventListener(changeEvent, listener);
        window.removeEventListener("storage", onStorage);
      };
    },
  };
}

const shopper = createSessionStore({ tokenKey: "token", userKey: "user", changeEvent: "bookstore:auth-change" });

export const getToken = shopper.getToken;
export const getUser = shopper.getUser;
export const setAuth = shopper.save;
export const clearAuth = shopper.clear;
export const onAuthChange = shopper.onChange;
