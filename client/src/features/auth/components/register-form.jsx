// Sign-up with the fields and local checks of product §8.2, used by the register page and the auth dialog.
import { Field } from "../../../components/ui/field.jsx";
import { NameFields } from "../../../components/ui/address-fields.jsx";
import { useAuth } from "../auth-context.jsx";
import { fieldErrors, passwordProblem } from "../password-rules.js";
import { useForm } from "../../../lib/use-form.js";
import { FormMessage } from "./form-message.jsx";
import { NewPasswordFields } from "./new-password-fields.jsx";

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
  const { fields, change, errors, setErrors, message, setMessage, busy, setBusy, later } = useForm(EMPTY);

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
      later(() => onDone?.(reply.user), delayMs);
    } catch (error) {
      setErrors(fieldErrors(error));
      setMessage({ kind: "error", text: error.message || "Registration failed" });
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormMessage message={message} onDismiss={() => setMessage(null)} />
      <NameFields values={fields} errors={errors} change={change} autoFocus={autoFocus} />
      <Field label="Email" error={errors.email} required>
        <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
      </Field>
      <Field label="Phone" error={errors.phone} hint="Optional. A 10-digit mobile number.">
        <input name="phone" type="tel" autoComplete="tel" value={fields.phone} onChange={change} />
      </Field>
      <NewPasswordFields values={fields} errors={errors} change={change} label="Password" />
      <button type="submit" className="button form__submit" disabled={busy}>
        {busy ? "Creating Account..." : "Sign Up"}
      </button>
    </form>
  );
}
