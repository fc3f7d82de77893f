// Return calls (product §7.10): ask for a return of a delivered order, add a photo, read a photo back.
import { apiClient } from "../../lib/api-client.js";

function withToken(path, token) {
  return token ? `${path}?${new URLSearchParams({ token })}` : path;
}

/** {lines: [{book, quantity, reason}], note, refundTo?}; `token`: the order link's, for a guest. */
export async function requestReturn(orderId, body, token) {
  const { returnRequest } = await apiClient(withToken(`orders/${encodeURIComponent(orderId)}/returns`, token), { body });
  return returnRequest;
}

/** One photo as a data URL (JPEG, PNG or WebP, at most 5 MB). */
export async function addReturnPhoto(orderId, returnId, photo, token) {
  const path = `orders/${encodeURIComponent(orderId)}/returns/${encodeURIComponent(returnId)}/photos`;
  const { returnRequest } = await apiClient(withToken(path, token), { body: { photo } });
  return returnRequest;
}
