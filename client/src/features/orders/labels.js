// How order facts read to a shopper.
import { dayRange } from "../../lib/days.js";

const DATE = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" });

export function formatDate(iso) {
  return iso ? DATE.format(new Date(iso)) : "";
}

export const PAYMENT_METHODS = { cod: "Cash on Delivery", online: "Online Payment" };

export const PAYMENT_STATUSES = {
  pending: "Pending",
  awaiting: "Awaiting payment",
  paid: "Paid",
  failed: "Failed",
  refunded: "Refunded",
  refund_pending: "Refund pending",
  cancelled: "Cancelled",
};

// Product §7.2: an unknown status displays like pending.
const STATUSES = {
  pending: "Pending", processing: "Processing", shipped: "Shipped", delivered: "Delivered", cancelled: "Cancelled",
  returned: "Returned",
};

export function statusLabel(status) {
  return STATUSES[status] ?? STATUSES.pending;
}

export function statusKey(status) {
  return STATUSES[status] ? status : "pending";
}

export function paymentStatusLabel(status) {
  return PAYMENT_STATUSES[status] ?? (status ? status.replace(/_/g, " ") : "Pending");
}

/**
 * Product §7.4: the owner may cancel a pending or processing order within 1 hour of placing it. An order read whole
 * says whether the server's other rules allow it (`canCancel`: no parcel sent, no e-book downloaded, never
 * delivered, no return); the hour is checked here too, since the page may stay open past it.
 */
export function canCancel(order, now = Date.now()) {
  if (order.canCancel === false) return false;
  return ["pending", "processing"].includes(order.status) && now - new Date(order.createdAt).getTime() < 3600 * 1000;
}

/**
 * "Waiting for the shop's confirmation until 28 Nov 2026, 10:30 am" for a large cash order the shop has not yet
 * confirmed (the order's confirmBy, product §5.7); "" otherwise.
 */
export function confirmByText(order) {
  if (!order?.confirmBy || order.status !== "pending") return "";
  return `Waiting for the shop's confirmation until ${formatDate(order.confirmBy)}`;
}

/**
 * "Arriving between Tue, 1 Dec and Thu, 3 Dec" (or "Arriving on Tue, 1 Dec") from the order's promisedDelivery,
 * while the parcel is on its way; "" without dates, or once the order is delivered, cancelled or returned (as its mails).
 */
export function promiseText(order) {
  const promised = order?.promisedDelivery;
  if (!promised?.from || ["delivered", "cancelled", "returned"].includes(order.status)) return "";
  return dayRange(promised, "Arriving", "on");
}
