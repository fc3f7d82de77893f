// Unit tests of the kit form's rules (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { booksTotal, kitBody, kitProblems, notForKits, valuesFromKit } from "./kit-rules.js";

test("the body sends books as ids and quantities and leaves a blank slug to the server", () => {
  const body = kitBody({ name: " Set ", slug: " ", description: "", price: "900", exam: "", archived: false,
    books: [{ _id: "3", title: "A", salePrice: 500, quantity: "2" }] });
  assert.deepEqual(body, { name: "Set", description: "", price: 900, exam: null, archived: false,
    books: [{ book: "3", quantity: 2 }] });
});

test("values come back from a kit and the books add up in paise", () => {
  const values = valuesFromKit({ name: "Set", slug: "set", description: "", price: 900, archived: false, exam: null,
    books: [{ _id: "3", title: "A", salePrice: 0.1, quantity: 3 }, { _id: "4", title: "B", salePrice: 0.2, quantity: 1 }] });
  assert.equal(values.price, "900");
  assert.equal(booksTotal(values.books), 0.5);
});

test("server errors become one message a field, nested lines too", () => {
  assert.deepEqual(kitProblems({ price: ["Price must be more than ₹0."], books: { 0: { quantity: ["Too many."] } } }),
    { price: "Price must be more than ₹0.", books: "Too many." });
});

test("an e-book or audiobook found by the picker says why it cannot be added; a printed book can be", () => {
  assert.equal(notForKits({ digital: true, format: "E-Book" }), "E-Book: downloaded, not shipped, so not in a kit");
  assert.equal(notForKits({ digital: true, format: "Audiobook" }), "Audiobook: downloaded, not shipped, so not in a kit");
  assert.equal(notForKits({ digital: false, format: "Paperback" }), null);
});
