// Account upkeep calls: e-mailed links, passwords, sign-in providers. Only the lazy account screens
// import this file, so none of it weighs on the home page's JavaScript.
import { apiClient } from "../../lib/api-client.js";

/** {message, user}: the address the e-mailed link was sent to is verified. */
export function verifyEmail(token) {
  return apiClient("auth/verify-email", { body: { token } });
}

/** {message, user}: the "this wasn't me" link of an e-mail change; the account keeps its old address and every
 * session has ended. */
export function undoEmailChange(token) {
  return apiClient("auth/undo-email-change", { body: { token } });
}

/** {message}: a new verification link is on its way to the signed-in account's address (or its pending one). */
export function resendVerification() {
  return apiClient("auth/resend-verification", { method: "POST" });
}

/** {message}: the same answer whether or not the address has an account. */
export function forgotPassword(email) {
  return apiClient("auth/forgot-password", { body: { email } });
}

/** {message}: the password is set and every session of the account has ended. */
export function resetPassword(token, password) {
  return apiClient("auth/reset-password", { body: { token, password } });
}

/** {message, token, user}: the new password is set; only the returned token still works. */
export function changePassword(currentPassword, newPassword) {
  return apiClient("auth/password", { method: "PUT", body: { currentPassword, newPassword } });
}

let providers = null;

/** {google: boolean}: the external sign-ins this shop offers, asked once per page load. */
export function getProviders() {
  providers ??= apiClient("auth/providers").catch(() => {
    providers = null; // a failed look-up hides the buttons now and asks again next time
    return { google: false };
  });
  return providers;
}

/** {message}: the account is closed and every session ended; `password`, or for Google accounts `confirmation`. */
export function closeAccount({ password, confirmation }) {
  return apiClient("auth/close-account", { body: { password, confirmation } });
}
