// The unsubscribe screen's call (lazy: only /newsletter/unsubscribe imports it, not the footer's form).
import { apiClient } from "../../lib/api-client.js";

/** Stop the newsletter for the signed token of a newsletter's link; resolves to the server's message. */
export async function unsubscribe(token) {
  const { message } = await apiClient("newsletter/unsubscribe", { body: { token } });
  return message;
}
