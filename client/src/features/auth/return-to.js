// Where a shopper goes back to after signing in, also across the full-page trip to Google and back.
import { paths } from "../../config/paths.js";

const KEY = "signInReturnTo";

/** Only same-site paths are followed after sign-in, never another site named in the URL. */
export function safePath(path) {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\")
    ? path : paths.home();
}

/** Keep `path` for the callback screen; the Google round trip loses everything but this tab's storage. */
export function rememberReturn(path) {
  try {
    window.sessionStorage.setItem(KEY, safePath(path));
  } catch {
    // storage blocked: the shopper simply lands on the home page
  }
}

/** The remembered path, or the home page. */
export function peekReturn() {
  try {
    return safePath(window.sessionStorage.getItem(KEY));
  } catch {
    return paths.home();
  }
}

export function forgetReturn() {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
