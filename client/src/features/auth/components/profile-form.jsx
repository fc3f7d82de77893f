// The profile's edit form: name, e-mail and phone, saved through the auth context (a new e-mail is verified again).
import { NameFields } from "../../../components/ui/address-fields.jsx";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { useAuth } from "../auth-context.jsx";
import { fieldErrors } from "../password-rules.js";
import { useForm } from "../../../lib/use-form.js";

/** Edit the signed-in shopper's details; `onDone(message)` after a save, `onDone(null)` on Cancel. */
export function ProfileForm({ user, onDone }) {
  const { updateProfile } = useAuth();
  const { fields, change, errors, setErrors, message, setMessage, busy, setBusy } = useForm({
    firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email ?? "", phone: user.phone ?? "" });

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
      const fresh = await updateProfile({ firstName: fields.firstName.trim(), lastName: fields.lastName.trim(),
        email: fields.email.trim(), phone: fields.phone.trim() || null });
      onDone(fresh.email !== user.email
        ? `Your profile has been updated. We have e-mailed a link to ${fresh.email}: open it to verify the new address.`
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
        hint="If you change it, we e-mail a link to the new address and it stays unverified until you open it.">
        <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
      </Field>
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
