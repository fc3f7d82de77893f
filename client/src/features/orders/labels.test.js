// Unit tests of how order facts read (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { canCancel, confirmByText, promiseText } from "./labels.js";

test("an order's promise is shown while the parcel is on its way", () => {
  const promisedDelivery = { from: "2026-12-01", to: "2026-12-03" };
  assert.equal(promiseText({ status: "shipped", promisedDelivery }), "Arriving between Tue, 1 Dec and Thu, 3 Dec");
  assert.equal(promiseText({ status: "processing", promisedDelivery: { from: "2026-12-01", to: "2026-12-01" } }),
    "Arriving on Tue, 1 Dec");
  assert.equal(promiseText({ status: "delivered", promisedDelivery }), "");
});

test("a large cash order says until when it waits for the shop's confirmation while pending", () => {
  const confirmBy = "2026-11-28T05:00:00Z";
  assert.equal(confirmByText({ status: "pending", confirmBy }),
    `Waiting for the shop's confirmation until ${new Intl.DateTimeFormat("en-IN", {
      dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" }).format(new Date(confirmBy))}`);
  assert.equal(confirmByText({ status: "processing", confirmBy }), "");
  assert.equal(confirmByText({ status: "pending", confirmBy: null }), "");
});

test("the Cancel button follows the order's canCancel and the hour", () => {
  const placed = Date.parse("2026-12-01T10:00:00Z");
  const order = { status: "pending", createdAt: "2026-12-01T10:00:00Z" };
  assert.equal(canCancel(order, placed + 60_000), true);
  assert.equal(canCancel({ ...order, canCancel: true }, placed + 60_000), true);
  assert.equal(canCancel({ ...order, canCancel: false }, placed + 60_000), false); // an e-book was downloaded
  assert.equal(canCancel({ ...order, canCancel: true }, placed + 3601_000), false);
});
