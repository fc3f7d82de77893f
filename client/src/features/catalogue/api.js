// Catalogue calls: the book list, one book, shelves, suggestions and categories.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";

/**
 * A page of books: {books, totalBooks, totalPages, pagination}. params are the API's names
 * (page, limit, search, category, sortBy, minPrice, maxPrice, language, format).
 */
export function listBooks(params, { signal } = {}) {
  return apiClient(booksPath(params), { signal });
}

/** The API address of a page of books (the server embeds the reply of a bare /books under it). */
export function booksPath(params) {
  return `books${query(params)}`;
}

/** One visible book. :raise ApiError: 404 when it does not exist or was archived. */
export async function getBook(id, { signal } = {}) {
  const { book } = await apiClient(`books/${encodeURIComponent(id)}`, { signal });
  return book;
}

/** The home page's featured books (the server's choice, 8 by default). */
export async function getFeaturedBooks({ limit = 8, signal } = {}) {
  const { books } = await apiClient(`books/featured${query({ limit })}`, { signal });
  return books;
}

/** Best sellers by copies sold, optionally of one category. */
export async function getBestsellers({ limit = 12, category, signal } = {}) {
  const { books } = await apiClient(`books/bestsellers${query({ limit, category })}`, { signal });
  return books;
}

/** Newest books by publication date, optionally of one category. */
export async function getNewReleases({ limit = 12, category, signal } = {}) {
  const { books } = await apiClient(`books/new-releases${query({ limit, category })}`, { signal });
  return books;
}

/** Search-as-you-type: [{book, matchedOn, preview?}], at most 8. */
export async function suggestBooks(text, { signal } = {}) {
  const { suggestions } = await apiClient(`books/suggest${query({ q: text })}`, { signal });
  return suggestions;
}

/** The 18 categories in the shop's order, with live book counts. */
export async function getCategories({ signal } = {}) {
  const { categories } = await apiClient("categories", { signal });
  return categories;
}
