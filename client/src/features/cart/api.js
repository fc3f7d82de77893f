// Cart calls: the current version of the books in the cart.
import { apiClient } from "../../lib/api-client.js";

// The server reads at most this many books in one call (schemas/book.py, MAX_BOOKS_BY_ID).
const IDS_PER_CALL = 50;

/**
 * The current books for ids, as {id: book}, in one call per 50 books. A book the server no longer
 * sells (unknown or archived) maps to null; when a call fails (network, server error) its books are
 * left out, so their lines stay as they were.
 */
export async function getCurrentBooks(ids, { signal } = {}) {
  const calls = [];
  for (let start = 0; start < ids.length; start += IDS_PER_CALL) calls.push(ids.slice(start, start + IDS_PER_CALL));
  const replies = await Promise.all(calls.map(async (some) => {
    try {
      const { books } = await apiClient(`books/by-ids?ids=${some.map(encodeURIComponent).join(",")}`, { signal });
      const found = new Map(books.map((book) => [book._id, book]));
      return some.map((id) => [id, found.get(String(id)) ?? null]);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      return [];
    }
  }));
  return Object.fromEntries(replies.flat());
}
