// Unit tests of counted words (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { plural } from "./plural.js";

test("one takes the singular, every other count the plural", () => {
  assert.equal(plural(1, "copy", "copies"), "1 copy");
  assert.equal(plural(0, "copy", "copies"), "0 copies");
  assert.equal(plural(2, "book"), "2 books");
  assert.equal(plural(1200, "book"), "1,200 books");
});
