// Coupons on the admin screens: how one reads in the list, and the editor's values to and from the API.
import { formatRupees } from "../../lib/money.js";
import { formatDateTime } from "./format.js";

export const COUPON_LABELS = {
  code: "Code", kind: "Discount type", value: "Discount", minOrder: "Minimum order (₹)", validFrom: "Valid from",
  validTo: "Valid until", maxUses: "Total uses", maxUsesPerCustomer: "Uses per customer", category: "Category",
  firstOrderOnly: "First order only", active: "Active",
};

export const EMPTY_COUPON = {
  code: "", kind: "percent", value: "", minOrder: "", validFrom: "", validTo: "", maxUses: "",
  maxUsesPerCustomer: "1", category: "", firstOrderOnly: false, active: true,
};

const IST_OFFSET_MS = 330 * 60 * 1000;

/** "2026-11-25T15:30" in Indian time (a datetime-local value) from an ISO instant. */
export function istLocal(iso) {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? new Date(date.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16) : "";
}

/** The UTC instant of a datetime-local value read as Indian time, or the text itself when unreadable. */
export function fromIstLocal(value) {
  const date = new Date(`${value}:00+05:30`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** "10% off" or "₹50 off". */
export function discountText(coupon) {
  return coupon.kind === "percent" ? `${coupon.value}% off` : `${formatRupees(coupon.value)} off`;
}

/** The rules besides the discount, in a few words: "Min. ₹499 · exams only · first order · 1 per customer". */
export function rulesText(coupon, categoryNames = {}) {
  const rules = [];
  if (coupon.minOrder > 0) rules.push(`Min. order ${formatRupees(coupon.minOrder)}`);
  if (coupon.category) rules.push(`${categoryNames[coupon.category] ?? coupon.category} only`);
  if (coupon.firstOrderOnly) rules.push("first order only");
  rules.push(coupon.maxUsesPerCustomer ? `${coupon.maxUsesPerCustomer} per customer` : "no limit per customer");
  const text = rules.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "From 1 Dec 2026, 12:00 am" / "Until …" / "1 Dec – 31 Dec" / "Always". */
export function validityText(coupon) {
  const from = coupon.validFrom && formatDateTime(coupon.validFrom);
  const to = coupon.validTo && formatDateTime(coupon.validTo);
  if (from && to) return `${from} – ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Until ${to}`;
  return "Always";
}

/** "3 / 100", or "3 / no limit". */
export function usesText(coupon) {
  return `${coupon.uses} / ${coupon.maxUses ?? "no limit"}`;
}

/** Whether a coupon can be used now (switched on, and inside its dates). */
export function couponState(coupon, now = Date.now()) {
  if (!coupon.active) return "off";
  if (coupon.validTo && new Date(coupon.validTo).getTime() <= now) return "expired";
  if (coupon.validFrom && new Date(coupon.validFrom).getTime() > now) return "scheduled";
  if (coupon.maxUses !== null && coupon.maxUses !== undefined && coupon.uses >= coupon.maxUses) return "used up";
  return "active";
}

const text = (value) => (value === null || value === undefined ? "" : String(value));

/** Form values from a coupon of the API. */
export function valuesFromCoupon(coupon) {
  return {
    code: coupon.code, kind: coupon.kind, value: text(coupon.value), minOrder: coupon.minOrder ? text(coupon.minOrder) : "",
    validFrom: istLocal(coupon.validFrom), validTo: istLocal(coupon.validTo), maxUses: text(coupon.maxUses),
    maxUsesPerCustomer: text(coupon.maxUsesPerCustomer), category: coupon.category ?? "",
    firstOrderOnly: Boolean(coupon.firstOrderOnly), active: Boolean(coupon.active),
  };
}

const wholeOrNull = (value) => {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed; // the server says what is wrong with the rest
};

/**
 * The POST/PUT body: every rule, so the server checks the discount against its type and the end against the
 * start. A date the admin did not touch goes back exactly as the server sent it (`coupon`, when editing).
 */
export function couponBody(values, coupon = null) {
  const when = (name) => {
    if (coupon && values[name] === istLocal(coupon[name])) return coupon[name] ?? null;
    return values[name] ? fromIstLocal(values[name]) : null;
  };
  return {
    code: values.code.trim().toUpperCase(),
    kind: values.kind,
    value: values.value.trim(),
    minOrder: values.minOrder.trim() || 0,
    validFrom: when("validFrom"),
    validTo: when("validTo"),
    maxUses: wholeOrNull(values.maxUses),
    maxUsesPerCustomer: wholeOrNull(values.maxUsesPerCustomer),
    category: values.category || null,
    firstOrderOnly: values.firstOrderOnly,
    active: values.active,
  };
}

/** The server's field errors as {field: message}. */
export function couponProblems(errors) {
  if (!errors || typeof errors !== "object") return {};
  return Object.fromEntries(Object.entries(errors).map(([name, messages]) => [
    name, Array.isArray(messages) ? messages.join(" ") : typeof messages === "string" ? messages : Object.values(messages).flat().join(" "),
  ]));
}
