// E-mail and password sign-in, used by the login page and the auth dialog.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { Field } from "../../../components/ui/field.jsx";
import { useAuth } from "../auth-context.jsx";
import { useForm } from "../../../lib/use-form.js";
import { FormMessage } from "./form-message.jsx";

/**
 * Signs in, shows the success message, then calls onDone(user) after delayMs. onLeave runs when the
 * shopper follows "Forgot password?" (the dialog closes).
 */
export function LoginForm({ onDone, onLeave, delayMs = 1000, autoFocus = false }) {
  const { login } = useAuth();
  const { fields, change, errors, setErrors, message, setMessage, busy, setBusy, later } =
    useForm({ email: "", password: "" });

  async function submit(event) {
    event.preventDefault();
    const missing = {};
    if (!fields.email.trim()) missing.email = "E-mail is required.";
    if (!fields.password) missing.password = "Password is required.";
    setErrors(missing);
    setMessage(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const reply = await login({ email: fields.email.trim(), password: fields.password });
      setMessage({ kind: "success", text: "Login successful! Welcome back." });
      later(() => onDone?.(reply.user), delayMs);
    } catch (error) {
      setMessage({ kind: "error", text: error.message || "Login failed" });
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormMessage message={message} onDismiss={() => setMessage(null)} />
      <Field label="Email" error={errors.email} required>
        <input name="email" type="email" autoComplete="email" autoFocus={autoFocus} value={fields.email} onChange={change} />
      </Field>
      <Field label="Password" error={errors.password} required>
        <input name="password" type="password" autoComplete="current-password" value={fields.password} onChange={change} />
      </Field>
      <div className="login-form__actions">
        <button type="submit" className="button form__submit" disabled={busy}>
          {busy ? "Signing In..." : "Login"}
        </button>
        <Link to={paths.forgotPassword(fields.email.trim() || undefined)} onClick={onLeave}>Forgot password?</Link>
      </div>
    </form>
  );
}
