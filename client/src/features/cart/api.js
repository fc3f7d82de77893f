// Cart calls: the current version of the books in the cart.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";

// The server reads at most this many books in one call (schemas/book.py, MAX_BOOKS_BY_ID).
const IDS_PER_CALL = 50;

/**
 * The current books for ids, as {id: book}, in one call per 50 books. A book the server no longer
 * sells (unknown or archived) maps to null; when a call fails (network, server error) its books are
 * left out, so their lines stay as they were. An id that is not a book id at all (an edited local
 * storage) is gone too, rather than making the server refuse the whole call.
 */
export async function getCurrentBooks(ids, { signal } = {}) {
  const wellFormed = ids.filter((id) => /^[0-9]+$/.test(String(id)));
  // A kit's line ("kit-<id>") is re-read by use-kit-refresh.js on the cart and checkout screens.
  const gone = ids.filter((id) => !/^(kit-)?[0-9]+$/.test(String(id))).map((id) => [id, null]);
  const calls = [];
  for (let start = 0; start < wellFormed.length; start += IDS_PER_CALL) {
    calls.push(wellFormed.slice(start, start + IDS_PER_CALL));
  }
  const replies = await Promise.all(calls.map(async (some) => {
    try {
      const { books } = await apiClient(`books/by-ids${query({ ids: some.join(",") })}`, { signal });
      const found = new Map(books.map((book) => [book._id, book]));
      return some.map((id) => [id, found.get(String(id)) ?? null]);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      return [];
    }
  }));
  return Object.fromEntries([...gone, ...replies.flat()]);
}
