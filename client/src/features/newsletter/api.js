// Newsletter calls: sign up (double opt-in) and confirm from the e-mailed link.
import { apiClient } from "../../lib/api-client.js";

/** Resolves to the server's message asking the shopper to confirm by e-mail. */
export async function subscribe(email) {
  const { message } = await apiClient("newsletter", { body: { email } });
  return message;
}

export async function confirmSubscription(token, { signal } = {}) {
  const { message } = await apiClient("newsletter/confirm", { body: { token }, signal });
  return message;
}
