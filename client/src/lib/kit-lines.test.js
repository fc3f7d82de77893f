import { test } from "node:test";
import assert from "node:assert/strict";
import { isKitItem, kitCartItem, orderItem } from "./kit-lines.js";

const kit = { _id: "7", name: "JEE set", slug: "jee-set", price: 900, booksPrice: 1300, saving: 400, stock: 3,
  books: [{ quantity: 1, thumbnailUrl: "/media/a.webp" }, { quantity: 2 }] };

test("a kit is a cart item with its own id space, its saving shown as a discount", () => {
  const item = kitCartItem(kit);
  assert.equal(item._id, "kit-7");
  assert.equal(isKitItem(item), true);
  assert.equal(isKitItem({ _id: "7" }), false);
  assert.deepEqual([item.title, item.author, item.price, item.discountedPrice, item.stock],
    ["JEE set", "Kit of 3 books", 1300, 900, 3]);
});

test("a kit saving nothing shows its own price only", () => {
  const item = kitCartItem({ ...kit, saving: 0, booksPrice: 800 });
  assert.deepEqual([item.price, item.discountedPrice], [900, null]);
});

test("lines go to the server as book or kit items", () => {
  assert.deepEqual(orderItem({ book: { _id: "kit-7" }, quantity: 2 }), { kit: "7", quantity: 2 });
  assert.deepEqual(orderItem({ book: { _id: "12" }, quantity: 1 }), { book: "12", quantity: 1 });
});
