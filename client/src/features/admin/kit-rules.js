// The kit form's values and what it sends: rupees as typed, books as [{book, quantity}].

export const KIT_LABELS = {
  name: "Name", slug: "Slug", description: "Description", price: "Kit price (₹)", exam: "Exam", books: "Books",
  archived: "Archived",
};

export const EMPTY_KIT = { name: "", slug: "", description: "", price: "", exam: "", books: [], archived: false };

/** The form's values from a kit the API sent. */
export function valuesFromKit(kit) {
  return {
    name: kit.name, slug: kit.slug, description: kit.description ?? "", price: String(kit.price),
    exam: kit.exam?._id ?? "", archived: kit.archived,
    books: kit.books.map((book) => ({ _id: book._id, title: book.title, salePrice: book.salePrice, quantity: book.quantity })),
  };
}

/** The request body: a blank slug lets the server make one from the name; a blank exam links none. */
export function kitBody(values) {
  const body = {
    name: values.name.trim(), description: values.description.trim(), price: values.price.trim() === "" ? null : Number(values.price),
    exam: values.exam || null, archived: values.archived,
    books: values.books.map((book) => ({ book: book._id, quantity: Number(book.quantity) })),
  };
  if (values.slug.trim()) body.slug = values.slug.trim();
  return body;
}

/** Why a book found by the picker cannot go in a kit (the server's rule: a kit is shipped, an e-book is not), or null. */
export function notForKits(book) {
  return book.digital ? `${book.format || "E-book"}: downloaded, not shipped, so not in a kit` : null;
}

/** What the books cost one by one, in rupees (the saving the shop page will show is this less the kit price). */
export function booksTotal(books) {
  return books.reduce((total, book) => total + Math.round(Number(book.salePrice) * 100) * Number(book.quantity || 0), 0) / 100;
}

/** Field errors from the server's {field: [messages]} (nested lines flattened). */
export function kitProblems(errors) {
  if (!errors || typeof errors !== "object") return {};
  return Object.fromEntries(Object.entries(errors).map(([name, messages]) => [
    name, Array.isArray(messages) ? messages.join(" ") : typeof messages === "string" ? messages
      : JSON.stringify(messages).match(/"([^"]+)"\]/)?.[1] ?? "Check this field.",
  ]));
}
