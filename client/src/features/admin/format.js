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

export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"];
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

/** Statuses an order may move to from `from` (decisions §5: never out of cancelled, nor delivered → cancelled). */
export function allowedOrderStatuses(from) {
  if (from === "cancelled") return [];
  return ORDER_STATUSES.filter((status) => status !== from && !(from === "delivered" && status === "cancelled"));
}

/** "#1A2B3C4D": the last 8 characters of an order id (spec §2, Manage Orders). */
export function shortOrderId(id) {
  return `#${String(id ?? "").slice(-8)}`;
}
