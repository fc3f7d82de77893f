// Unit tests of delivery days (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { day, dayRange } from "./days.js";

test("a day reads as weekday, date and month; not a date stays as it is", () => {
  assert.equal(day("2026-11-26"), "Thu, 26 Nov");
  assert.equal(day("soon"), "soon");
});

test("a range reads as one day or between two", () => {
  assert.equal(dayRange({ from: "2026-11-26" }, "Arriving", "on"), "Arriving on Thu, 26 Nov");
  assert.equal(dayRange({ from: "2026-11-26", to: "2026-11-27" }, "Arriving", "on"),
    "Arriving between Thu, 26 Nov and Fri, 27 Nov");
});
