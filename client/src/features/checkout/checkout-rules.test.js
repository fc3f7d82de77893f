// Unit tests of checkout's local rules (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { provideShop } from "../../lib/shop.js";
import { CITIES, suggestCities } from "./india.js";
import { validateShipping } from "./validation.js";

const address = { firstName: "Meera", lastName: "Iyer", email: "meera@example.in", phone: "+91 98765 43210",
  address: "12 Lake View Road", landmark: "", city: "Bangalore", state: "Karnataka", zipCode: "560001" };

const cities = (text, pinCity) => suggestCities(text, pinCity).map(({ label }) => label);

test("cities are suggested only after two letters, those starting with them first", () => {
  assert.ok(CITIES.length >= 20);
  assert.deepEqual(cities("b"), []);
  assert.deepEqual(cities("Pu").slice(0, 2), ["Pune (Poona)", "Puducherry (Pondicherry)"]);
  assert.ok(cities("Pu").indexOf("Jaipur") > 1, "containing after starting with");
  assert.deepEqual(cities("Pune"), [], "nothing to suggest once the city is typed in full");
});

test("other spellings find the city under its official name", () => {
  assert.deepEqual(cities("Beng"), ["Bengaluru (Bangalore)"]);
  assert.deepEqual(suggestCities("Bangal"), [{ city: "Bengaluru", label: "Bengaluru (Bangalore)" }]);
  for (const [typed, label] of [["Gurg", "Gurugram (Gurgaon)"], ["Bomb", "Mumbai (Bombay)"], ["Madr", "Chennai (Madras)"],
    ["Calc", "Kolkata (Calcutta)"], ["Allah", "Prayagraj (Allahabad)"], ["Triv", "Thiruvananthapuram (Trivandrum)"],
    ["Pondi", "Puducherry (Pondicherry)"], ["Myso", "Mysuru (Mysore)"], ["Baro", "Vadodara (Baroda)"]]) {
    assert.ok(cities(typed).includes(label), `${typed} -> ${label}: ${cities(typed)}`);
  }
});

test("the PIN directory's name for the PIN comes first", () => {
  assert.equal(cities("Gu", "Gurgaon")[0], "Gurugram (Gurgaon)");
  assert.equal(cities("Ko", "Kolar")[0], "Kolar");
  assert.ok(!cities("Ko", "Mysuru").includes("Mysuru"), "only when it matches the text typed");
});

// The PIN rule comes from GET /api/shop (tests/api/test_shop.py proves the server's pattern).
provideShop({ pinPattern: "^[1-9][0-9]{5}$" });

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
