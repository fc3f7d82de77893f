// The signed-in shopper's token and profile, kept in localStorage under "token" and "user".
const TOKEN_KEY = "token";
const USER_KEY = "user";
const CHANGE_EVENT = "bookstore:auth-change";

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage can be disabled (private mode, blocked cookies)
  }
}

export function getToken() {
  return read(TOKEN_KEY);
}

/** The stored user, or null when absent or unreadable. */
export function getUser() {
  try {
    return JSON.parse(read(USER_KEY)) ?? null;
  } catch {
    return null;
  }
}

export function setAuth({ token, user }) {
  window.localStorage.setItem(TOKEN_KEY, token);
  window.localStorage.setItem(USER_KEY, JSON.stringify(user));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function clearAuth() {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(USER_KEY);
  } catch {
    // nothing stored, nothing to clear
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Call listener whenever sign-in state changes, here or in another tab; returns the unsubscribe. */
export function onAuthChange(listener) {
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
