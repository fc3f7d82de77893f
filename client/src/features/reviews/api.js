// Review calls: a book's published reviews for everyone; the signed-in shopper's own review and standing.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";

/** {rating, ratingCount, reviews, pagination}: a page of a book's published reviews, newest first. */
export function getReviews(bookId, { page = 1, limit = 5, signal } = {}) {
  return apiClient(`books/${encodeURIComponent(bookId)}/reviews${query({ page, limit })}`, { signal });
}

/** {canReview, reason, review}: the shopper's own review, and whether (or why not) they may write one. */
export function getMyReview(bookId, { signal } = {}) {
  return apiClient(`books/${encodeURIComponent(bookId)}/reviews/mine`, { signal });
}

/** Publish a review {stars, title, text}; 403 with the server's reason unless a delivered order held the book. */
export function createReview(bookId, fields) {
  return apiClient(`books/${encodeURIComponent(bookId)}/reviews`, { body: fields });
}

/** Change the shopper's own review. */
export function updateMyReview(bookId, fields) {
  return apiClient(`books/${encodeURIComponent(bookId)}/reviews/mine`, { method: "PUT", body: fields });
}
