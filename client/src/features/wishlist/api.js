// Wishlist calls (signed in): each reply is the whole list, newest first.
import { apiClient } from "../../lib/api-client.js";

/** [{book, addedAt}] */
export async function getWishlist({ signal } = {}) {
  const { books } = await apiClient("users/wishlist", { signal });
  return books;
}

export async function addToWishlist(bookId) {
  const { books } = await apiClient("users/wishlist", { body: { bookId } });
  return books;
}

export async function removeFromWishlist(bookId) {
  const { books } = await apiClient(`users/wishlist/${encodeURIComponent(bookId)}`, { method: "DELETE" });
  return books;
}
