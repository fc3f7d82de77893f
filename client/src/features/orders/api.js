// Order calls: the shopper's own orders, one order, cancel, and the guest look-up.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";

/** {orders, totalOrders, totalPages, pagination} */
export function getMyOrders({ page = 1, limit = 10, signal } = {}) {
  return apiClient(`orders/mine${query({ page, limit })}`, { signal });
}

/** `token`: the order e-mail's link token, for a guest (no sign-in). */
export async function cancelOrder(orderId, token) {
  const { order } = await apiClient(`orders/${encodeURIComponent(orderId)}/cancel${query({ token })}`, { method: "POST" });
  return order;
}

/** One order: the owner's (signed in) or, with the e-mailed link's `token`, anyone's who holds the link. */
export async function getOrder(orderId, { token, signal } = {}) {
  const { order } = await apiClient(`orders/${encodeURIComponent(orderId)}${query({ token })}`, { signal });
  return order;
}

/** A guest's order by its number and the e-mail it was placed with. */
export async function lookupOrder({ orderNumber, email, signal }) {
  const { order } = await apiClient(`orders/lookup${query({ orderNumber: orderNumber.trim(), email: email.trim() })}`, { signal });
  return order;
}

/** Count one download of a paid e-book or audiobook line: {url, expiresIn} (the url works for 5 minutes). */
export function downloadLine(orderId, lineId, token) {
  const query = token ? `?${new URLSearchParams({ token })}` : "";
  return apiClient(`orders/${encodeURIComponent(orderId)}/lines/${encodeURIComponent(lineId)}/download${query}`,
    { method: "POST" });
}
