// Kits in the cart. The cart keeps lines of {item, quantity} keyed by the item's _id; a kit's line has the
// _id "kit-<kit id>", so books and kits never clash, and goes to the server as {kit, quantity}.
export const KIT_PREFIX = "kit-";

export function isKitItem(item) {
  return String(item?._id ?? "").startsWith(KIT_PREFIX);
}

/**
 * A kit as a cart item: its books' sum as the list price and the kit price as the price paid (so the cart
 * shows the saving like a book's discount), its stock the scarcest book's.
 */
export function kitCartItem(kit) {
  const saves = Number(kit.saving) > 0;
  const count = (kit.books ?? []).reduce((total, book) => total + book.quantity, 0);
  return {
    _id: `${KIT_PREFIX}${kit._id}`,
    title: kit.name,
    author: `Kit of ${count} ${count === 1 ? "book" : "books"}`,
    price: saves ? kit.booksPrice : kit.price,
    discountedPrice: saves ? kit.price : null,
    stock: kit.stock,
    slug: kit.slug,
    thumbnailUrl: kit.books?.[0]?.thumbnailUrl ?? null,
  };
}

/** A cart line as the order and the quote take it. */
export function orderItem({ book, quantity }) {
  return isKitItem(book) ? { kit: book._id.slice(KIT_PREFIX.length), quantity } : { book: book._id, quantity };
}
