// Unit tests of checkout's local rules (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { CITIES, STATES, suggestCities, UNION_TERRITORIES } from "./india.js";
import { validateShipping } from "./validation.js";

const address = { firstName: "Meera", lastName: "Iyer", email: "meera@example.in", phone: "+91 98765 43210",
  address: "12 Lake View Road", landmark: "", city: "Bangalore", state: "Karnataka", zipCode: "560001" };

test("cities are suggested only after two letters, those starting with them first", () => {
  assert.equal(CITIES.length, 20);
  assert.deepEqual(suggestCities("b"), []);
  assert.deepEqual(suggestCities("Pu"), ["Pune", "Jaipur", "Kanpur", "Nagpur"]);
  assert.deepEqual(suggestCities("na"), ["Nagpur", "Chennai", "Visakhapatnam", "Patna"]);
  assert.deepEqual(suggestCities("Pune"), [], "nothing to suggest once the city is typed in full");
});

test("every state and union territory is offered, Delhi included", () => {
  assert.equal(STATES.length + UNION_TERRITORIES.length, 36);
  assert.ok(UNION_TERRITORIES.includes("Delhi") && STATES[0] === "Andhra Pradesh" && STATES.at(-1) === "West Bengal");
});

test("a complete Indian address passes", () => {
  assert.deepEqual(validateShipping(address), {});
});

test("blank required fields are named; landmark is optional", () => {
  const errors = validateShipping({ ...address, firstName: "  ", city: "", zipCode: "" });
  assert.deepEqual(Object.keys(errors).sort(), ["city", "firstName", "zipCode"]);
});

test("PIN, phone and e-mail formats follow the server's rules", () => {
  assert.ok(validateShipping({ ...address, zipCode: "056001" }).zipCode);
  assert.ok(validateShipping({ ...address, zipCode: "56001" }).zipCode);
  assert.ok(validateShipping({ ...address, phone: "12345 67890" }).phone);
  assert.equal(validateShipping({ ...address, phone: "09876543210" }).phone, undefined);
  assert.ok(validateShipping({ ...address, email: "meera@" }).email);
});
