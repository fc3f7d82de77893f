// Kit calls: the kits on sale (or one exam's) and one kit.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";

/** [{_id, name, slug, description, price, booksPrice, saving, stock, inStock, exam, books}]. */
export async function getKits({ exam, signal } = {}) {
  const { kits } = await apiClient(`kits${query({ exam })}`, { signal });
  return kits;
}

/** One kit on sale. :raise ApiError: 404 for an unknown or archived kit. */
export async function getKit(slug, { signal } = {}) {
  const { kit } = await apiClient(`kits/${encodeURIComponent(slug)}`, { signal });
  return kit;
}
