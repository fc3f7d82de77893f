// Unit tests of how order facts read (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { promiseText } from "./labels.js";

test("an order's promise is shown while the parcel is on its way", () => {
  const promisedDelivery = { from: "2026-12-01", to: "2026-12-03" };
  assert.equal(promiseText({ status: "shipped", promisedDelivery }), "Arriving between Tue, 1 Dec and Thu, 3 Dec");
  assert.equal(promiseText({ status: "processing", promisedDelivery: { from: "2026-12-01", to: "2026-12-01" } }),
    "Arriving on Tue, 1 Dec");
  assert.equal(promiseText({ status: "delivered", promisedDelivery }), "");
});
