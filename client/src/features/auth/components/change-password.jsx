// The profile's password section: change it with the current one, or, for a Google-only account, set one.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { getUser, setAuth } from "../../../lib/auth-storage.js";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { changePassword } from "../account-api.js";
import { fieldErrors, newPasswordErrors } from "../password-rules.js";
import { useForm } from "../../../lib/use-form.js";
import { NewPasswordFields } from "./new-password-fields.jsx";

const EMPTY_PASSWORDS = { currentPassword: "", password: "", confirmPassword: "" };

/** Current password, then the new one twice; this browser keeps the fresh token the server returns. */
function ChangePasswordForm() {
  const { fields, setFields, change, errors, setErrors, message, setMessage, busy, setBusy } = useForm(EMPTY_PASSWORDS);

  async function submit(event) {
    event.preventDefault();
    const local = newPasswordErrors(fields.password, fields.confirmPassword, "New password");
    if (!fields.currentPassword) local.currentPassword = "Current password is required.";
    setErrors(local);
    setMessage(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const reply = await changePassword(fields.currentPassword, fields.password);
      // Every other session has ended; only the token in this reply still works.
      setAuth({ token: reply.token, user: { ...getUser(), ...reply.user } });
      setFields(EMPTY_PASSWORDS);
      setMessage({ tone: "success", text: reply.message || "Your password has been changed." });
    } catch (error) {
      const { currentPassword, newPassword } = fieldErrors(error);
      setErrors({ currentPassword, password: newPassword });
      setMessage({ tone: "error", text: error.message || "Failed to change the password." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="password-title">
      {message && <Banner tone={message.tone} onDismiss={() => setMessage(null)}>{message.text}</Banner>}
      <input type="text" name="username" autoComplete="username" value={getUser()?.email ?? ""} readOnly hidden />
      <Field label="Current Password" error={errors.currentPassword} required>
        <input name="currentPassword" type="password" autoComplete="current-password" value={fields.currentPassword} onChange={change} />
      </Field>
      <NewPasswordFields values={fields} errors={errors} change={change} />
      <p className="field__hint">Other devices signed in to this account will be signed out.</p>
      <button type="submit" className="button form__submit" disabled={busy}>{busy ? "Saving…" : "Change Password"}</button>
    </form>
  );
}

/** The section: the form, or the way to a first password for an account that signs in with Google. */
export function PasswordSection({ user }) {
  return (
    <section className="card profile-section" aria-labelledby="password-title">
      <h2 id="password-title">Change Password</h2>
      {user.hasPassword === false ? (
        <>
          <p>
            You signed in with Google, so this account has no password yet. To set one, use Forgot password:
            we will e-mail a link to {user.email}.
          </p>
          <Link className="button button--secondary" to={paths.forgotPassword(user.email)}>Set a password</Link>
        </>
      ) : <ChangePasswordForm />}
    </section>
  );
}
