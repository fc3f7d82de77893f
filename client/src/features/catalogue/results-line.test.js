// Unit tests of the results line (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { resultsLine } from "./results-line.js";

test("an exact total is shown as counted, in Indian digit groups", () => {
  assert.equal(resultsLine(12, { total: 123456, totalIsApproximate: false }), "Showing 12 of 1,23,456 books");
  assert.equal(resultsLine(0, { total: 0 }), "Showing 0 of 0 books", "lists that never approximate omit the flag");
});

test("one book is one book", () => {
  assert.equal(resultsLine(1, { total: 1, totalIsApproximate: false }), "Showing 1 of 1 book");
});

test("a search counted no further than 1,000 reads 1,000+", () => {
  assert.equal(resultsLine(12, { total: 1000, totalIsApproximate: true }, "physics"),
    'Showing 12 of 1,000+ books for "physics"');
  assert.equal(resultsLine(12, { total: 1000, totalIsApproximate: false }, "physics"),
    'Showing 12 of 1,000 books for "physics"', "exactly 1,000 matches are exact");
});

test("the search and the category follow the count", () => {
  assert.equal(resultsLine(2, { total: 14, totalIsApproximate: false }, "mechanics", "GATE"),
    'Showing 2 of 14 books for "mechanics" in GATE');
  assert.equal(resultsLine(12, { total: 1008, totalIsApproximate: true }, "", "GATE"),
    "Showing 12 of 1,008+ books in GATE");
});
