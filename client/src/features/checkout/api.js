// Checkout calls: place the order, and pay for it online.
import { apiClient } from "../../lib/api-client.js";

/** {onlineAvailable, keyId, checkoutUrl, message} */
export function getPaymentConfig({ signal } = {}) {
  return apiClient("payments/config", { signal });
}

/** The placed order. The key makes a retry of the same attempt return the same order. */
export async function placeOrder(body, idempotencyKey) {
  const { order } = await apiClient("orders", { body, headers: { "Idempotency-Key": idempotencyKey } });
  return order;
}

/** {key_id, order: {id, amount, currency}}: Razorpay's order for the shop order (made once). */
export function createPaymentOrder(orderId) {
  return apiClient("payments/create-order", { body: { orderId } });
}

/** The order, now paid. :raise ApiError: when the signature does not check out. */
export async function verifyPayment(fields) {
  const { order } = await apiClient("payments/verify", { body: fields });
  return order;
}

/**
 * The server's figures for the cart now: {orderItems, itemsPrice, discount, shippingPrice, codFee, taxPrice,
 * totalPrice, cashOnDelivery?: {available, reason}, coupon?: {code, applied, discount, reason}}.
 */
export function getQuote(body, { signal } = {}) {
  return apiClient("cart/quote", { body, signal });
}
