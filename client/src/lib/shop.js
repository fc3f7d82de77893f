// The shop's constants (GET /api/shop): fees, limits and the lists the forms offer, read once at start-up.
// Flask embeds the reply in every page (#shop-data), so the first paint has them without a round trip;
// a page without it (an old cached shell) asks the API once. The client keeps no copy of its own.
import { useSyncExternalStore } from "react";
import { apiClient } from "./api-client.js";
import { formatRupees } from "./money.js";

function embedded() {
  try {
    return JSON.parse(document.getElementById("shop-data")?.textContent ?? "null");
  } catch {
    return null;
  }
}

let shop = typeof document === "undefined" ? null : embedded();
const listeners = new Set();
let asked = false;

/** Take the shop's constants as the server gave them (the API's reply; a unit test's copy of it). */
export function provideShop(reply) {
  shop = reply;
  listeners.forEach((listener) => listener());
}

function load() {
  if (shop || asked) return;
  asked = true;
  apiClient("shop").then(provideShop, () => {
    asked = false; // a later screen asks again
  });
}

function subscribe(listener) {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

/** The shop's constants now, or null until they have come (only when the page did not carry them). */
export function currentShop() {
  return shop;
}

/**
 * {shippingFee, freeShippingThreshold, zoneShippingFees, codLimit, codFee, maxLinesPerOrder, maxQuantityPerLine, pinPattern,
 * states, formats, languages, coverImage: {maxBytes, maxSide, types}}, or null while loading.
 */
export function useShop() {
  return useSyncExternalStore(subscribe, currentShop, currentShop);
}

/** The lowest and highest shipping fee an order pays below the free-shipping threshold, whatever its PIN. */
export function shippingFeeRange(shopNow) {
  const fees = [shopNow.shippingFee, ...Object.values(shopNow.zoneShippingFees ?? {})].map(Number);
  return [Math.min(...fees), Math.max(...fees)];
}

/**
 * "+ ₹50.00 shipping per order", "… (free on orders of ₹499.00 or more)", "+ ₹30.00–₹120.00 shipping per order,
 * by PIN" when some zones have their own fee, or "" before the shop is known.
 */
export function shippingNote(shopNow) {
  if (!shopNow) return "";
  const [lowest, highest] = shippingFeeRange(shopNow);
  if (highest === 0) return "Free shipping";
  const free = shopNow.freeShippingThreshold != null
    ? ` (free on orders of ${formatRupees(shopNow.freeShippingThreshold)} or more)` : "";
  if (lowest !== highest) return `+ ${formatRupees(lowest)}–${formatRupees(highest)} shipping per order, by PIN${free}`;
  return `+ ${formatRupees(shopNow.shippingFee)} shipping per order${free}`;
}

/** "₹50" as the shop's pages write fees in prose: whole rupees without decimals. */
export function rupeesInText(amount) {
  const whole = Number.isInteger(Number(amount));
  return `₹${Number(amount).toLocaleString("en-IN", { maximumFractionDigits: whole ? 0 : 2, minimumFractionDigits: whole ? 0 : 2 })}`;
}

/** The shipping fee as prose writes it ("₹50"), or "" until the shop is known. */
export function useShippingFee() {
  const shopNow = useShop();
  return shopNow ? rupeesInText(shopNow.shippingFee) : "";
}
