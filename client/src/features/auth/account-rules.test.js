// Unit tests of the account screens' local rules (node --test; run by tests/test_client_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrors, newPasswordErrors, passwordProblem } from "./password-rules.js";
import { safePath } from "./return-to.js";

test("a new password is 6 to 128 characters, every one of them counted", () => {
  assert.equal(passwordProblem(""), "Password is required.");
  assert.equal(passwordProblem("12345", "New password"), "New password must be at least 6 characters.");
  assert.equal(passwordProblem("     x"), null, "spaces count: nothing is trimmed");
  assert.equal(passwordProblem("x".repeat(128)), null);
  assert.equal(passwordProblem("x".repeat(129)), "Password must be at most 128 characters.");
});

test("the confirmation must match, and is judged only once the password itself is acceptable", () => {
  assert.deepEqual(newPasswordErrors("secret-pass", "secret-pass"), {});
  assert.deepEqual(newPasswordErrors("secret-pass", "secret-pasS"), { confirmPassword: "Passwords do not match" });
  assert.deepEqual(newPasswordErrors("short", "other"), { password: "Password must be at least 6 characters." });
});

test("the server's field errors become one message per field", () => {
  assert.deepEqual(fieldErrors({ errors: { currentPassword: ["Current password is incorrect."], token: "Used." } }),
    { currentPassword: "Current password is incorrect.", token: "Used." });
  assert.deepEqual(fieldErrors(new Error("offline")), {});
});

test("only same-site paths are returned to after sign-in", () => {
  assert.equal(safePath("/cart?x=1"), "/cart?x=1");
  for (const hostile of ["//evil.example/", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", null, 42]) {
    assert.equal(safePath(hostile), "/", String(hostile));
  }
});
