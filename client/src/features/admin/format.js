// How the admin screens write dates, ids and statuses.
const DATE = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", year: "numeric", timeZone: "Asia/Kolkata" });
const DATE_TIME = new Intl.DateTimeFormat("en-IN", {
  day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "Asia/Kolkata",
});
const DAY = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", timeZone: "UTC" });
const COUNT = new Intl.NumberFormat("en-IN");

/** "5 Nov 2026" in Indian time, or "—" for a missing or unreadable date. */
export function formatDate(iso) {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? DATE.format(date) : "—";
}

/** "5 Nov 2026, 3:04 pm" in Indian time. */
export function formatDateTime(iso) {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? DATE_TIME.format(date) : "—";
}

/** "24 Oct" for a calendar day "2026-10-24" (already an Indian day on the server). */
export function formatDay(day) {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
}

/** 1,23,456 */
export function formatCount(value) {
  return COUNT.format(Number(value) || 0);
}

export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled", "returned"];
export const CONTACT_STATUSES = ["new", "in-progress", "resolved"];

/** "In progress" from "in-progress". */
export function statusLabel(status) {
  const text = String(status ?? "").replace(/-/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const CONTACT_SUBJECTS = {
  general: "General Inquiry",
  order: "Order Status",
  returns: "Returns & Refunds",
  technical: "Technical Support",
  partnership: "Partnership",
  other: "Other",
};

export const PAYMENT_METHODS = { cod: "Cash on delivery", online: "Online (Razorpay)" };

/** The customer's name on an admin order. */
export function customerName(order) {
  const person = order?.user ?? order?.shippingAddress ?? {};
  return [person.firstName, person.lastName].filter(Boolean).join(" ") || "—";
}

const FORWARD = ["pending", "processing", "shipped", "delivered"];

/** Whether moving `order` to `status` needs a reason (back, or past a step): the server refuses it without one. */
export function needsReason(order, status) {
  const from = FORWARD.indexOf(order.status);
  const to = FORWARD.indexOf(status);
  return from >= 0 && to >= 0 && to !== from + 1;
}

/**
 * Statuses an order may move to (the server's rules): never out of cancelled or returned; cancelled only from
 * pending or processing with no parcel sent; an unpaid online order only to cancelled. With `withReason`, also the moves back or past a step.
 */
export function allowedOrderStatuses(order, { withReason = false } = {}) {
  if (!order || ["cancelled", "returned"].includes(order.status)) return [];
  const unpaidOnline = order.paymentMethod === "online" && order.paymentStatus !== "paid";
  return ORDER_STATUSES.filter((status) => {
    // Returned comes from the parcels (a returned parcel received back), never from this list.
    if (status === order.status || status === "returned") return false;
    // List rows carry hasParcels; the whole order (its dialog) carries the parcels themselves.
    if (status === "cancelled" && (order.hasParcels ?? sentOrBooking(order).length > 0)) return false;
    // An order once delivered, or with returns, is never cancelled, even moved back (product §7.3).
    if (status === "cancelled" && (order.returns?.length || order.statusHistory?.some((c) => c.status === "delivered"))) return false;
    if (status === "cancelled") return ["pending", "processing"].includes(order.status);
    if (unpaidOnline) return false;
    return withReason || !needsReason(order, status);
  });
}

export const SHIPMENT_EVENTS = {
  picked_up: "Picked up",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  failed_attempt: "Delivery attempt failed",
  rto: "Returned to origin (RTO)",
};

/** Parcels with a courier or being booked: a parcel whose booking failed holds no lines (product §7.8). */
export function sentOrBooking(order) {
  return (order?.shipments ?? []).filter((shipment) => shipment.status !== "booking_failed");
}

/** Whether Shiprocket is still booking a parcel of the order (the screen refreshes until it is done). */
export function isBooking(order) {
  return (order?.shipments ?? []).some((shipment) => shipment.status === "booking");
}

/** Copies of each order line (by book id) not yet in a parcel. */
export function unshippedLines(order) {
  const sent = {};
  for (const shipment of sentOrBooking(order)) {
    for (const line of shipment.lines ?? []) sent[line.book] = (sent[line.book] ?? 0) + line.quantity;
  }
  return (order?.orderItems ?? []).map((item) => ({ ...item, left: item.quantity - (sent[item.book] ?? 0) }))
    .filter((item) => item.left > 0);
}
