// Unit tests of PINs as typed and delivery dates in words (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { estimateText, normalisePin, savedPin } from "./pin.js";

// GET /api/shop's pinPattern (tests/api/test_shop.py proves the server's).
const SHOP_PIN = "^[1-9][0-9]{5}$";

test("a PIN may be typed with a space; anything else not 6 digits starting 1-9 is refused", () => {
  assert.equal(normalisePin("560 001", SHOP_PIN), "560001");
  assert.equal(normalisePin(" 110001 ", SHOP_PIN), "110001");
  for (const bad of ["", "56000", "060001", "5600011", "56O001", null]) assert.equal(normalisePin(bad, SHOP_PIN), null);
});

test("before the shop's pattern is known, six digits pass (the server checks again)", () => {
  assert.equal(normalisePin("560 001"), "560001");
  for (const bad of ["", "56000", "5600011", "56O001"]) assert.equal(normalisePin(bad), null);
});

test("delivery dates read as one day or a range", () => {
  assert.equal(estimateText({ from: "2026-11-26", to: "2026-11-26" }), "Delivered by Thu, 26 Nov");
  assert.equal(estimateText({ from: "2026-11-26", to: "2026-11-27" }), "Delivered between Thu, 26 Nov and Fri, 27 Nov");
  assert.equal(estimateText(null), "");
});

test("a signed-in shopper's account PIN comes before the one this browser remembers", () => {
  const stored = new Map([["deliveryPin", "110001"]]);
  globalThis.window = { localStorage: { getItem: (key) => stored.get(key) ?? null } };
  try {
    assert.equal(savedPin({ deliveryPin: "799001" }), "799001");
    assert.equal(savedPin({ deliveryPin: null }), "110001");
    assert.equal(savedPin(null), "110001");
  } finally {
    delete globalThis.window;
  }
});
