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

/** What the order offers to return, each with a `key` of its own: a book's own line and the same book inside a
 * kit (`kitLine`, titled "… (from <kit>)" by the server) are two choices. `titles`: book id → its line's title. */
export function returnChoices(returnableLines, titles) {
  return returnableLines.map((line) => ({
    ...line,
    key: line.kitLine ? `kit-${line.kitLine}-${line.book}` : line.book,
    title: line.title ?? titles[line.book] ?? "this book",
  }));
}

/** The shape the API takes: a line per chosen copy count (a kit's book with its kitLine); refundTo only for cash
 * on delivery. `quantities` and `reasons` are keyed by the choices' keys. */
export function returnBody({ choices, quantities, reasons, note, cash, refundKind, upi, accountNumber, ifsc, holder }) {
  const lines = choices
    .filter(({ key }) => Number(quantities[key]) > 0)
    .map(({ key, book, kitLine }) => ({ book, ...(kitLine ? { kitLine } : {}), quantity: Number(quantities[key]),
      reason: reasons[key] || "damaged" }));
  const body = { lines, note: note.trim() };
  if (cash) {
    body.refundTo = refundKind === "upi" ? { upi: upi.trim() }
      : { accountNumber: accountNumber.replace(/\s/g, ""), ifsc: ifsc.trim().toUpperCase(), holder: holder.trim() };
  }
  return body;
}
