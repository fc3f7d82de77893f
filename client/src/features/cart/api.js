// Cart calls: the current version of the books in the cart.
import { apiClient } from "../../lib/api-client.js";

/**
 * The current books for ids, as {id: book}; a book that is gone (404) maps to null and a book
 * that could not be read (network, server error) is left out, so its line stays as it was.
 */
export async function getCurrentBooks(ids, { signal } = {}) {
  const replies = await Promise.all(ids.map(async (id) => {
    try {
      const reply = await apiClient(`books/${encodeURIComponent(id)}`, { signal });
      return [id, reply.book ?? reply];
    } catch (error) {
      if (error.name === "AbortError") throw error;
      return error.status === 404 ? [id, null] : undefined;
    }
  }));
  return Object.fromEntries(replies.filter(Boolean));
}
