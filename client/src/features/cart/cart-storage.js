// The cart in localStorage (key "cart", product §4.1): [{bookId, quantity, book}] where book is a
// display snapshot of what the shopper last saw. Prices are always re-read before checkout.
const CART_KEY = "cart";
const CHECKOUT_KEY = "checkoutCart";
const CHANGE_EVENT = "bookstore:cart-change";

// Only these book fields are kept: enough to draw a cart line without a round trip.
const SNAPSHOT_FIELDS = ["_id", "title", "author", "category", "price", "discountedPrice", "stock",
  "thumbnailUrl", "imageUrl"];

export function snapshot(book) {
  const kept = {};
  for (const field of SNAPSHOT_FIELDS) if (book?.[field] !== undefined) kept[field] = book[field];
  return kept;
}

/** The stored lines; anything malformed (an old format, a hand edit) is dropped, never thrown. */
export function readCart() {
  let raw;
  try {
    raw = JSON.parse(window.localStorage.getItem(CART_KEY));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw
    .map((entry) => {
      const book = entry?.book && typeof entry.book === "object" ? entry.book : entry;
      const bookId = String(entry?.bookId ?? book?._id ?? "");
      const quantity = Number(entry?.quantity);
      if (!bookId || !Number.isInteger(quantity) || quantity < 1 || typeof book?.title !== "string") return null;
      return { book: { ...snapshot(book), _id: bookId }, quantity };
    })
    .filter(Boolean);
}

export function writeCart(lines) {
  try {
    const stored = lines.map(({ book, quantity }) => ({ bookId: book._id, quantity, book: snapshot(book) }));
    window.localStorage.setItem(CART_KEY, JSON.stringify(stored));
    // The checkout copy, checkoutCart (product §4.2); the checkout re-reads the live cart, so it is the same list.
    window.localStorage.setItem(CHECKOUT_KEY, JSON.stringify(stored));
  } catch {
    // storage full or disabled: the cart still works for this page view
  }
}

/** Replace the stored cart (the sign-in merge) and tell every CartProvider. */
export function replaceStoredCart(lines) {
  writeCart(lines);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Empty the stored cart from anywhere (logout, a placed order) and tell every CartProvider. */
export function clearStoredCart() {
  try {
    window.localStorage.removeItem(CART_KEY);
    window.localStorage.removeItem(CHECKOUT_KEY);
  } catch {
    // nothing stored
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Call listener when the stored cart changes in another tab or is cleared here. */
export function onStoredCartChange(listener) {
  const onStorage = (event) => {
    if (event.key === null || event.key === CART_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", onStorage);
  };
}
