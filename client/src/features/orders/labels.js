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

/** Product §7.4: the owner may cancel a pending or processing order within 1 hour of placing it. */
export function canCancel(order, now = Date.now()) {
  return ["pending", "processing"].includes(order.status) && now - new Date(order.createdAt).getTime() < 3600 * 1000;
}

const DAY = new Intl.DateTimeFormat("en-IN", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

function day(iso) {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(DAY.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${parts.weekday}, ${parts.day} ${parts.month}`;
}

/**
 * "Arriving between Tue, 1 Dec and Thu, 3 Dec" (or "Arriving on Tue, 1 Dec") from the order's promisedDelivery,
 * while the parcel is on its way; "" without dates, or once the order is delivered, cancelled or returned (as its mails).
 */
export function promiseText(order) {
  const promised = order?.promisedDelivery;
  if (!promised?.from || ["delivered", "cancelled", "returned"].includes(order.status)) return "";
  if (!promised.to || promised.to === promised.from) return `Arriving on ${day(promised.from)}`;
  return `Arriving between ${day(promised.from)} and ${day(promised.to)}`;
}
