// Account calls: sign-in, sign-up, sign-out and the profile.
import { apiClient } from "../../lib/api-client.js";

/** {token, user, message} for a correct e-mail and password. */
export function login({ email, password }) {
  return apiClient("auth/login", { body: { email, password } });
}

/** {token, user, message}: the new account, signed in. */
export function register({ firstName, lastName, email, password, phone }) {
  return apiClient("auth/register", { body: { firstName, lastName, email, password, phone: phone || null } });
}

/** Revoke the current token on the server; a server without the call (404) or a dead token is fine. */
export async function logout() {
  try {
    await apiClient("auth/logout", { method: "POST" });
  } catch {
    // Signing out locally must never fail because the server could not be told.
  }
}

export async function getProfile({ signal } = {}) {
  const { user } = await apiClient("auth/profile", { signal });
  return user;
}

export async function updateProfile(fields) {
  const { user } = await apiClient("auth/profile", { method: "PUT", body: fields });
  return user;
}
