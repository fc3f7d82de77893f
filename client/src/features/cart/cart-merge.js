// The rule that joins the browser's cart with the account's saved cart at sign-in (pure, unit-tested).

/**
 * One cart from two lists of {book, quantity}: the browser's lines first (what the shopper just chose), then
 * the saved lines of other books. A book in both gets the sum of its quantities, capped at the shop's copies
 * per line and the book's stock when known (never below 1); lines past the shop's lines per order are dropped.
 */
export function mergeCarts(browserLines, serverLines, { maxLines = Infinity, maxCopies = Infinity } = {}) {
  const merged = new Map();
  for (const line of [...browserLines, ...serverLines]) {
    const id = String(line.book._id);
    const before = merged.get(id);
    const book = before ? { ...before.book, ...line.book } : line.book; // the saved copy is fresher
    merged.set(id, { book, quantity: (before?.quantity ?? 0) + line.quantity });
  }
  return [...merged.values()].slice(0, maxLines).map(({ book, quantity }) => {
    const stock = Number.isInteger(book.stock) && book.stock > 0 ? book.stock : Infinity;
    return { book, quantity: Math.max(1, Math.min(quantity, maxCopies, stock)) };
  });
}
