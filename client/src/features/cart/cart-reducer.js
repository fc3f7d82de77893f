// The cart's rules as a pure reducer: lines of {book, quantity}, quantities 1..stock, at most the shop's
// lines per order (GET /api/shop's maxLinesPerOrder, carried by each add action).

/** What one copy costs, in paise: the discounted price when there is one (product §5.3). */
export function unitPaise(book) {
  const rupees = book.discountedPrice ?? book.price;
  return Math.round(Number(rupees) * 100) || 0;
}

export function itemsTotalPaise(lines) {
  return lines.reduce((total, line) => total + unitPaise(line.book) * line.quantity, 0);
}

/** The highest quantity a line may have: its stock, when known, and the shop's copies per line. */
function cap(book, quantity, maxCopies = Infinity) {
  const stock = Number.isInteger(book.stock) ? book.stock : Infinity;
  return Math.max(1, Math.min(quantity, stock, maxCopies));
}

/**
 * Actions: add {book, quantity, maxLines, maxCopies}, setQuantity {bookId, quantity, maxCopies}, remove {bookId}, clear,
 * replace {lines} (from storage), refreshed {books: {id: book|null}} (a re-read from the API).
 * State: {lines, changes}; changes lists what the last refresh altered, for the shopper to read.
 */
export function cartReducer(state, action) {
  switch (action.type) {
    case "add": {
      const { book, quantity = 1 } = action;
      if (!book?._id || book.stock === 0) return state;
      const existing = state.lines.find((line) => line.book._id === book._id);
      if (existing) {
        const lines = state.lines.map((line) =>
          line === existing ? { book: { ...line.book, ...book }, quantity: cap(book, line.quantity + quantity, action.maxCopies) } : line);
        return { ...state, lines };
      }
      if (state.lines.length >= (action.maxLines ?? Infinity)) return state;
      return { ...state, lines: [...state.lines, { book, quantity: cap(book, quantity, action.maxCopies) }] };
    }
    case "setQuantity": {
      const quantity = Math.floor(Number(action.quantity));
      if (!Number.isFinite(quantity) || quantity < 1) return state;
      const lines = state.lines.map((line) =>
        line.book._id === action.bookId ? { ...line, quantity: cap(line.book, quantity, action.maxCopies) } : line);
      return { ...state, lines };
    }
    case "remove":
      return { ...state, lines: state.lines.filter((line) => line.book._id !== action.bookId) };
    case "clear":
      return { lines: [], changes: [] };
    case "replace":
      return { ...state, lines: action.lines };
    case "dismissChanges":
      return { ...state, changes: [] };
    case "refreshed":
      return applyRefresh(state, action.books);
    default:
      return state;
  }
}

/** Swap each line's snapshot for the fresh book; note price, stock and removal changes. */
function applyRefresh(state, books) {
  const changes = [];
  const lines = [];
  for (const line of state.lines) {
    if (!(line.book._id in books)) {
      lines.push(line); // not re-read this time (network error): keep as it was
      continue;
    }
    const fresh = books[line.book._id];
    const title = fresh?.title ?? line.book.title;
    if (fresh === null) {
      changes.push({ bookId: line.book._id, title, kind: "removed" });
      continue;
    }
    if (fresh.stock === 0) {
      changes.push({ bookId: fresh._id, title, kind: "soldOut" });
      continue;
    }
    const before = unitPaise(line.book);
    const after = unitPaise(fresh);
    if (before !== after) changes.push({ bookId: fresh._id, title, kind: "price", fromPaise: before, toPaise: after });
    const quantity = cap(fresh, line.quantity);
    if (quantity < line.quantity) {
      changes.push({ bookId: fresh._id, title, kind: "stock", from: line.quantity, to: quantity });
    }
    lines.push({ book: fresh, quantity });
  }
  return { lines, changes: [...state.changes.filter((c) => !changes.some((n) => n.bookId === c.bookId)), ...changes] };
}
