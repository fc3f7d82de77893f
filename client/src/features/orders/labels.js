// How order facts read to a shopper.
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
const STATUSES = { pending: "Pending", processing: "Processing", shipped: "Shipped", delivered: "Delivered", cancelled: "Cancelled" };

export function statusLabel(status) {
  return STATUSES[status] ?? STATUSES.pending;
}

export function statusKey(status) {
  return STATUSES[status] ? status : "pending";
}

export function paymentStatusLabel(status) {
  return PAYMENT_STATUSES[status] ?? (status ? status.replace(/_/g, " ") : "Pending");
}

/** Product §7.4: the owner may cancel a pending or processing order within 1 hour of placing it. */
export function canCancel(order, now = Date.now()) {
  return ["pending", "processing"].includes(order.status) && now - new Date(order.createdAt).getTime() < 3600 * 1000;
}
