// Exam calls: every exam (or the popular ones) with subjects and book counts, and one exam's page.
import { apiClient } from "../../lib/api-client.js";

/** [{_id, slug, name, shortName, group, popular, bookCount, subjects: [{slug, name, bookCount}]}]. */
export async function getExams({ popular = false, signal } = {}) {
  const { exams } = await apiClient(popular ? "exams?popular=true" : "exams", { signal });
  return exams;
}

/** {exam, bestSellers}. :raise ApiError: 404 for an unknown exam. */
export function getExam(slug, { signal } = {}) {
  return apiClient(`exams/${encodeURIComponent(slug)}`, { signal });
}
