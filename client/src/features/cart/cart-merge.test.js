// Unit tests of the sign-in cart merge (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeCarts } from "./cart-merge.js";

const book = (id, fields = {}) => ({ _id: id, title: `Book ${id}`, price: 100, stock: 50, ...fields });
const ids = (lines) => lines.map((line) => [line.book._id, line.quantity]);

test("a book in both carts gets the sum of its quantities", () => {
  const merged = mergeCarts([{ book: book("a"), quantity: 2 }], [{ book: book("a"), quantity: 3 }]);
  assert.deepEqual(ids(merged), [["a", 5]]);
});

test("the browser's lines come first, then the saved lines of other books", () => {
  const merged = mergeCarts([{ book: book("b"), quantity: 1 }],
    [{ book: book("a"), quantity: 1 }, { book: book("b"), quantity: 1 }]);
  assert.deepEqual(ids(merged), [["b", 2], ["a", 1]]);
});

test("the sum is capped at the copies per line and the stock", () => {
  const limits = { maxCopies: 10 };
  assert.deepEqual(ids(mergeCarts([{ book: book("a"), quantity: 7 }], [{ book: book("a"), quantity: 6 }], limits)),
    [["a", 10]]);
  assert.deepEqual(ids(mergeCarts([{ book: book("a", { stock: 4 }), quantity: 3 }],
    [{ book: book("a", { stock: 4 }), quantity: 3 }], limits)), [["a", 4]]);
});

test("lines past the shop's lines per order are dropped, saved ones first", () => {
  const merged = mergeCarts([{ book: book("a"), quantity: 1 }, { book: book("b"), quantity: 1 }],
    [{ book: book("c"), quantity: 1 }], { maxLines: 2 });
  assert.deepEqual(ids(merged), [["a", 1], ["b", 1]]);
});

test("empty carts merge to the other one", () => {
  assert.deepEqual(ids(mergeCarts([], [{ book: book("a"), quantity: 2 }])), [["a", 2]]);
  assert.deepEqual(ids(mergeCarts([{ book: book("a"), quantity: 2 }], [])), [["a", 2]]);
});
