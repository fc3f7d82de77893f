// Checkout's checks before anything is sent; the server checks the same again.
import { normalisePin } from "../../lib/pin.js";

export const FILL_ALL = "Please fill in all shipping details correctly.";
const REQUIRED = ["firstName", "lastName", "email", "phone", "address", "city", "state", "zipCode"];
const LABELS = { firstName: "First name", lastName: "Last name", email: "E-mail", phone: "Phone", address: "Address",
  city: "City", state: "State", zipCode: "PIN code" };

const STREET = ["address", "city", "state", "zipCode"];

/** Field errors for the shipping step: required fields, then formats (product §5.2); `digitalOnly` (e-books
 * and audiobooks only, product §7.11) asks no street, city, state or PIN. */
export function validateShipping(address, { digitalOnly = false } = {}) {
  const errors = {};
  for (const field of REQUIRED) {
    if (digitalOnly && STREET.includes(field)) continue;
    if (!String(address[field] ?? "").trim()) errors[field] = `${LABELS[field]} is required.`;
  }
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address.email.trim())) errors.email = "Enter a valid e-mail address.";
  const phone = String(address.phone ?? "").replace(/[\s\-()]/g, "").replace(/^(\+91|91|0)(?=\d{10}$)/, "");
  if (!errors.phone && !/^[6-9]\d{9}$/.test(phone)) errors.phone = "Enter a 10-digit Indian mobile number.";
  if (!digitalOnly && !errors.zipCode && !normalisePin(address.zipCode.trim())) {
    errors.zipCode = "PIN code must be 6 digits and cannot start with 0.";
  }
  const gstin = String(address.buyerGstin ?? "").replace(/\s/g, "").toUpperCase();
  // The server's pattern (schemas/fields.GSTIN_PATTERN): state code, PAN, entity number, Z, check character.
  if (gstin && !/^[0-3][0-9][A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(gstin)) {
    errors.buyerGstin = "GSTIN must be 15 characters like 29ABCDE1234F1Z5.";
  }
  return errors;
}

/**
 * The message when the state chosen is not the one the PIN directory gives for the PIN (`place` is the
 * delivery answer for that PIN), or null: an unknown PIN, or no state chosen yet, contradicts nothing.
 */
export function stateMismatch(address, place) {
  const state = String(address.state ?? "").trim();
  if (!place?.state || !state || state.toLowerCase() === place.state.toLowerCase()) return null;
  return `PIN code ${place.pin} is in ${place.state}, not ${state}.`;
}
