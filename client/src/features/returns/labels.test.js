// Unit tests of the return request's body (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { returnBody, returnChoices } from "./labels.js";

const offered = [
  { book: "7", quantity: 1 },
  { book: "7", quantity: 1, kitLine: "31", title: "JEE Physics (from JEE Main Kit)" },
  { book: "8", quantity: 2, kitLine: "31", title: "JEE Chemistry (from JEE Main Kit)" },
];

test("a book's own line and the same book from a kit are two choices with their own titles", () => {
  const choices = returnChoices(offered, { 7: "JEE Physics" });
  assert.deepEqual(choices.map(({ key, title }) => [key, title]), [
    ["7", "JEE Physics"], ["kit-31-7", "JEE Physics (from JEE Main Kit)"], ["kit-31-8", "JEE Chemistry (from JEE Main Kit)"]]);
});

test("the body names a kit's book with its kitLine and leaves plain lines as they were", () => {
  const choices = returnChoices(offered, { 7: "JEE Physics" });
  const body = returnBody({ choices, quantities: { 7: "1", "kit-31-7": "1", "kit-31-8": "0" }, reasons: { "kit-31-7": "wrong" },
    note: " torn ", cash: false, refundKind: "upi", upi: "", accountNumber: "", ifsc: "", holder: "" });
  assert.deepEqual(body, { lines: [{ book: "7", quantity: 1, reason: "damaged" },
    { book: "7", kitLine: "31", quantity: 1, reason: "wrong" }], note: "torn" });
});
