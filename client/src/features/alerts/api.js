// "Notify me" alert calls: ask on a book, confirm or cancel from the e-mailed links.
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
