// "Notify me" alert calls: ask on a book, confirm or cancel from the e-mailed links, the shopper's own list.
import { apiClient } from "../../lib/api-client.js";

/** kind "back-in-stock" or "new-edition"; a guest sends an address. Resolves to the server's message. */
export async function askForAlert(bookId, kind, email) {
  const body = email ? { kind, email } : { kind };
  const { message } = await apiClient(`books/${encodeURIComponent(bookId)}/alerts`, { body });
  return message;
}

export async function confirmAlert(token, { signal } = {}) {
  const { message } = await apiClient("alerts/confirm", { body: { token }, signal });
  return message;
}

export async function cancelAlert(token, { signal } = {}) {
  const { message } = await apiClient("alerts/cancel", { body: { token }, signal });
  return message;
}

/** The signed-in shopper's alerts, newest first: [{_id, bookId, bookTitle, kind, status, createdAt}]. */
export async function myAlerts({ signal } = {}) {
  const { alerts } = await apiClient("alerts/mine", { signal });
  return alerts;
}

/** Cancel one of the signed-in shopper's alerts. Resolves to the server's message. */
export async function cancelMyAlert(alertId) {
  const { message } = await apiClient(`alerts/${encodeURIComponent(alertId)}`, { method: "DELETE" });
  return message;
}
