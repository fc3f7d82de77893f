// Unit tests of the query-string helper (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { query } from "./query.js";

test("values that are set are written in order, encoded; numbers and false as text", () => {
  assert.equal(query({ page: 2, search: "c++ & maths", archived: false }), "?page=2&search=c%2B%2B+%26+maths&archived=false");
});

test("undefined, null and empty values are left out, and nothing left is no query at all", () => {
  assert.equal(query({ status: "", search: null, page: undefined }), "");
  assert.equal(query(), "");
  assert.equal(query({ status: "", page: 3 }), "?page=3");
});
