// How return facts read to a shopper (and to an administrator: the admin screens import these through app/).
export const RETURN_REASONS = [
  ["damaged", "Damaged"],
  ["defective", "Defective (pages missing, misprinted)"],
  ["wrong", "Wrong item"],
  ["missing", "Missing from the parcel"],
];

const REASON_TEXT = Object.fromEntries(RETURN_REASONS);

export function reasonLabel(reason) {
  return REASON_TEXT[reason] ?? reason;
}

const STATUS_TEXT = {
  requested: "Requested",
  approved: "Approved",
  rejected: "Not accepted",
  received: "Received",
  refund_pending: "Refund on its way",
  refunded: "Refunded",
};

export function returnStatusLabel(status) {
  return STATUS_TEXT[status] ?? status;
}

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_PHOTOS = 3;

/** The shape the API takes: refundTo only for cash on delivery. */
export function returnBody({ quantities, reasons, note, cash, refundKind, upi, accountNumber, ifsc, holder }) {
  const lines = Object.entries(quantities)
    .filter(([, quantity]) => Number(quantity) > 0)
    .map(([book, quantity]) => ({ book, quantity: Number(quantity), reason: reasons[book] || "damaged" }));
  const body = { lines, note: note.trim() };
  if (cash) {
    body.refundTo = refundKind === "upi" ? { upi: upi.trim() }
      : { accountNumber: accountNumber.replace(/\s/g, ""), ifsc: ifsc.trim().toUpperCase(), holder: holder.trim() };
  }
  return body;
}
