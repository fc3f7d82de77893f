// PIN codes as shoppers type them ("560 001"), the PIN remembered across visits, and delivery dates in words.
import { dayRange } from "./days.js";
import { currentShop } from "./shop.js";

const PIN_KEY = "deliveryPin";

/**
 * "560001" from "560 001" (spaces and dashes dropped), or null when it is not a well-formed PIN: one the
 * server's pattern (GET /api/shop) accepts; six digits while that is not known (the server checks again).
 */
export function normalisePin(text, pattern = currentShop()?.pinPattern ?? "^\\d{6}$") {
  const pin = String(text ?? "").replace(/[\s-]/g, "");
  return new RegExp(pattern).test(pin) ? pin : null;
}

/** The PIN the shopper last checked or shipped to, or "": a signed-in shopper's account's PIN first
 * (the same on every device), else the one this browser remembers. */
export function savedPin(user = null) {
  const accounts = normalisePin(user?.deliveryPin);
  if (accounts) return accounts;
  try {
    return normalisePin(window.localStorage.getItem(PIN_KEY)) ?? "";
  } catch {
    return "";
  }
}

export function rememberPin(pin) {
  try {
    if (normalisePin(pin)) window.localStorage.setItem(PIN_KEY, normalisePin(pin));
  } catch {
    // storage disabled: nothing remembered
  }
}

/** "Delivered by Thu, 28 Nov", or "Delivered between Tue, 26 Nov and Thu, 28 Nov"; "" without dates. */
export function estimateText(estimate) {
  if (!estimate?.from) return "";
  return dayRange(estimate, "Delivered", "by");
}
