// Unit tests of the state and PIN check at checkout (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { stateMismatch } from "./validation.js";

const address = { firstName: "Meera", lastName: "Iyer", email: "meera@example.in", phone: "9876543210",
  address: "12 Lake View Road", landmark: "", city: "Agartala", state: "Tripura", zipCode: "799001" };
const agartala = { pin: "799001", state: "Tripura" };

test("a state other than the PIN's is named", () => {
  assert.equal(stateMismatch({ ...address, state: "Telangana" }, agartala), "PIN code 799001 is in Tripura, not Telangana.");
});

test("the PIN's own state, no state yet, or a PIN the directory does not know contradict nothing", () => {
  assert.equal(stateMismatch(address, agartala), null);
  assert.equal(stateMismatch({ ...address, state: "tripura " }, agartala), null);
  assert.equal(stateMismatch({ ...address, state: "" }, agartala), null);
  assert.equal(stateMismatch({ ...address, state: "Goa" }, { pin: "999999", state: null }), null);
});
