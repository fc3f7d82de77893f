// Unit tests of the cart's rules (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cartReducer, itemsTotalPaise, unitPaise } from "./cart-reducer.js";

const MAX_LINES = 20; // GET /api/shop's maxLinesPerOrder, which the cart passes with each add

const book = (id, fields = {}) => ({ _id: id, title: `Book ${id}`, price: 100, stock: 5, ...fields });
const empty = { lines: [], changes: [] };
const apply = (state, ...actions) => actions.reduce(cartReducer, state);

test("adding a book twice raises its quantity instead of adding a line", () => {
  const state = apply(empty, { type: "add", book: book("a") }, { type: "add", book: book("a"), quantity: 2 });
  assert.equal(state.lines.length, 1);
  assert.equal(state.lines[0].quantity, 3);
});

test("quantities stay between 1 and the stock", () => {
  let state = apply(empty, { type: "add", book: book("a", { stock: 2 }), quantity: 5 });
  assert.equal(state.lines[0].quantity, 2);
  state = apply(state, { type: "setQuantity", bookId: "a", quantity: 0 });
  assert.equal(state.lines[0].quantity, 2, "0 is refused, not applied");
  state = apply(state, { type: "setQuantity", bookId: "a", quantity: 1.7 });
  assert.equal(state.lines[0].quantity, 1);
});

test("a sold-out book is never added, and the 21st line is refused", () => {
  assert.equal(apply(empty, { type: "add", book: book("x", { stock: 0 }) }).lines.length, 0);
  let state = empty;
  for (let i = 0; i <= MAX_LINES; i += 1) state = apply(state, { type: "add", book: book(`b${i}`), maxLines: MAX_LINES });
  assert.equal(state.lines.length, MAX_LINES);
});

test("a line holds no more copies than the shop allows per line (GET /api/shop's maxQuantityPerLine)", () => {
  let state = apply(empty, { type: "add", book: book("a", { stock: 50 }), quantity: 8, maxCopies: 10 },
    { type: "add", book: book("a", { stock: 50 }), quantity: 5, maxCopies: 10 });
  assert.equal(state.lines[0].quantity, 10);
  state = apply(state, { type: "setQuantity", bookId: "a", quantity: 12, maxCopies: 10 });
  assert.equal(state.lines[0].quantity, 10);
});

test("totals use the discounted price and integer paise", () => {
  const state = apply(empty,
    { type: "add", book: book("a", { price: 499.99, discountedPrice: 450.05 }), quantity: 3 },
    { type: "add", book: book("b", { price: 0.1 }), quantity: 3 });
  assert.equal(unitPaise(state.lines[0].book), 45005);
  assert.equal(itemsTotalPaise(state.lines), 3 * 45005 + 30);
});

test("a refresh reports new prices, lower stock, sold-out and vanished books", () => {
  const state = apply(empty,
    { type: "add", book: book("p"), quantity: 1 },
    { type: "add", book: book("s"), quantity: 4 },
    { type: "add", book: book("o") },
    { type: "add", book: book("g") },
    { type: "add", book: book("n") },
    { type: "refreshed", books: { p: book("p", { price: 120 }), s: book("s", { stock: 2 }), o: book("o", { stock: 0 }), g: null } });
  assert.deepEqual(state.lines.map((line) => [line.book._id, line.quantity]), [["p", 1], ["s", 2], ["n", 1]]);
  assert.deepEqual(state.changes.map((change) => [change.bookId, change.kind]),
    [["p", "price"], ["s", "stock"], ["o", "soldOut"], ["g", "removed"]]);
  assert.deepEqual(state.changes[0], { bookId: "p", title: "Book p", kind: "price", fromPaise: 10000, toPaise: 12000 });
  assert.equal(apply(state, { type: "dismissChanges" }).changes.length, 0);
});
