// The books screen's error messages (product §2.6), told apart by what went wrong.

export const BOOKS_TIMEOUT_MS = 10000;

/** A shopper-readable message for a failed book list request. */
export function booksErrorMessage(error, timedOut) {
  if (timedOut) return "Request timeout - the server is not responding. Please try again.";
  if (!error?.status) return "Network error - cannot connect to the shop. Check your connection and try again.";
  if (error.status === 404) return "Books could not be found at the shop's address. Please try again later.";
  if (error.status >= 500) return "Server error - the shop is having problems. Please try again in a moment.";
  return `Failed to fetch books: ${error.message}`;
}
