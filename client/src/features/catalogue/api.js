// Catalogue calls: books shelves and categories.
import { apiClient } from "../../lib/api-client.js";

/** The home page's featured books (the server's choice, 8 by default). */
export async function getFeaturedBooks({ limit = 8, signal } = {}) {
  const { books } = await apiClient(`books/featured?limit=${limit}`, { signal });
  return books;
}

/** The 18 categories in the shop's order, with live book counts. */
export async function getCategories({ signal } = {}) {
  const { categories } = await apiClient("categories", { signal });
  return categories;
}
