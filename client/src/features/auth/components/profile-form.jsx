// The profile's edit form: name, e-mail and phone, saved through the auth context. A new e-mail asks for the
// current password (the server waives it within 10 minutes of signing in) and stays pending until verified.
import { NameFields } from "../../../components/ui/address-fields.jsx";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { useAuth } from "../auth-context.jsx";
import { fieldErrors } from "../password-rules.js";
import { useForm } from "../../../lib/use-form.js";

const normalised = (email) => email.trim().toLowerCase();

/** Edit the signed-in shopper's details; `onDone(message)` after a save, `onDone(null)` on Cancel. */
export function ProfileForm({ user, onDone }) {
  const { updateProfile } = useAuth();
  const { fields, change, errors, setErrors, message, setMessage, busy, setBusy } = useForm({
    firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email ?? "", phone: user.phone ?? "",
    currentPassword: "" });
  const newEmail = normalised(fields.email);
  const asksNewEmail = Boolean(newEmail) && newEmail !== user.email && newEmail !== user.pendingEmail;

  async function submit(event) {
    event.preventDefault();
    const local = {};
    if (!fields.firstName.trim()) local.firstName = "First name is required.";
    if (!fields.lastName.trim()) local.lastName = "Last name is required.";
    if (!fields.email.trim()) local.email = "E-mail is required.";
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const changes = { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(),
        email: fields.email.trim(), phone: fields.phone.trim() || null };
      if (asksNewEmail && fields.currentPassword) changes.currentPassword = fields.currentPassword;
      const fresh = await updateProfile(changes);
      onDone(asksNewEmail && fresh.pendingEmail
        ? `Your profile has been updated. We have e-mailed a link to ${fresh.pendingEmail}: your account keeps `
          + `${fresh.email} until you open it.`
        : "Your profile has been updated.");
    } catch (error) {
      setErrors(fieldErrors(error));
      setMessage(error.message || "Failed to update profile");
      setBusy(false);
    }
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Edit profile">
      {message && <Banner onDismiss={() => setMessage(null)}>{message}</Banner>}
      <NameFields values={fields} errors={errors} change={change} />
      <Field label="Email" error={errors.email} required
        hint={user.pendingEmail
          ? `Pending verification of ${user.pendingEmail}. Until its link is opened, your account uses ${user.email}.`
          : "If you change it, we e-mail a link to the new address; your account keeps this one until you open it."}>
        <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
      </Field>
      {asksNewEmail && (user.hasPassword === false
        ? <p className="field__hint" role="note">
            For your safety, a new e-mail address needs a sign-in within the last 10 minutes. If it has been
            longer, sign out and sign in again with Google first.
          </p>
        : <Field label="Current password" error={errors.currentPassword}
            hint="Needed to change your e-mail address (not within 10 minutes of signing in).">
            <input name="currentPassword" type="password" autoComplete="current-password"
              value={fields.currentPassword} onChange={change} />
          </Field>)}
      <Field label="Phone" error={errors.phone} hint="Optional. A 10-digit mobile number.">
        <input name="phone" type="tel" autoComplete="tel" value={fields.phone} onChange={change} />
      </Field>
      <div className="order-card__actions">
        <button type="submit" className="button" disabled={busy}>{busy ? "Saving…" : "Save Changes"}</button>
        <button type="button" className="button button--secondary" onClick={() => onDone(null)} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}
