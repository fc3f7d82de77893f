// Sign-up with the fields and local checks of product §8.2, used by the register page and the auth dialog.
import { useEffect, useRef, useState } from "react";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { useAuth } from "../auth-context.jsx";
import { fieldErrors, PASSWORD_HINT, passwordProblem } from "../password-rules.js";

const EMPTY = { firstName: "", lastName: "", email: "", phone: "", password: "", confirmPassword: "" };

/** Product §8.2: names, e-mail and password required, password 6+ characters and confirmed. */
export function validateRegistration(fields) {
  const errors = {};
  if (!fields.firstName.trim()) errors.firstName = "First name is required.";
  if (!fields.lastName.trim()) errors.lastName = "Last name is required.";
  if (!fields.email.trim()) errors.email = "E-mail is required.";
  const problem = passwordProblem(fields.password);
  if (problem) errors.password = problem;
  if (fields.password && fields.confirmPassword !== fields.password) errors.confirmPassword = "Passwords do not match";
  return errors;
}

/** Registers (which signs in), asks the shopper to verify the e-mail, calls onDone(user) after delayMs. */
export function RegisterForm({ onDone, delayMs = 2000, autoFocus = false }) {
  const { register } = useAuth();
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState({});
  const [message, setMessage] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

  async function submit(event) {
    event.preventDefault();
    const local = validateRegistration(fields);
    setErrors(local);
    setMessage(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const { confirmPassword, ...body } = fields;
      const reply = await register({ ...body, firstName: body.firstName.trim(), lastName: body.lastName.trim(),
        email: body.email.trim(), phone: body.phone.trim() });
      setMessage({ kind: "success", text: "Registration successful! Please check your e-mail to verify your account." });
      timer.current = setTimeout(() => onDone?.(reply.user), delayMs);
    } catch (error) {
      setErrors(fieldErrors(error));
      setMessage({ kind: "error", text: error.message || "Registration failed" });
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      {message && (
        <Banner tone={message.kind} onDismiss={message.kind === "error" ? () => setMessage(null) : undefined}>
          {message.text}
        </Banner>
      )}
      <div className="form__row">
        <Field label="First Name" error={errors.firstName} required>
          <input name="firstName" autoComplete="given-name" autoFocus={autoFocus} value={fields.firstName} onChange={change} />
        </Field>
        <Field label="Last Name" error={errors.lastName} required>
          <input name="lastName" autoComplete="family-name" value={fields.lastName} onChange={change} />
        </Field>
      </div>
      <Field label="Email" error={errors.email} required>
        <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
      </Field>
      <Field label="Phone" error={errors.phone} hint="Optional. A 10-digit mobile number.">
        <input name="phone" type="tel" autoComplete="tel" value={fields.phone} onChange={change} />
      </Field>
      <Field label="Password" error={errors.password} hint={PASSWORD_HINT} required>
        <input name="password" type="password" autoComplete="new-password" value={fields.password} onChange={change} />
      </Field>
      <Field label="Confirm Password" error={errors.confirmPassword} required>
        <input name="confirmPassword" type="password" autoComplete="new-password" value={fields.confirmPassword} onChange={change} />
      </Field>
      <button type="submit" className="button form__submit" disabled={busy}>
        {busy ? "Creating Account..." : "Sign Up"}
      </button>
    </form>
  );
}
