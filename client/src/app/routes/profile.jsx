// Profile (/profile): the signed-in shopper's details, viewed and edited.
import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Field } from "../../components/ui/field.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { formatDate } from "../../features/orders/labels.js";
import { RequireSignIn } from "./login.jsx";

function ProfileForm({ user, onDone }) {
  const { updateProfile } = useAuth();
  const [fields, setFields] = useState({ firstName: user.firstName ?? "", lastName: user.lastName ?? "",
    email: user.email ?? "", phone: user.phone ?? "" });
  const [errors, setErrors] = useState({});
  const [message, setMessage] = useState(null);
  const [busy, setBusy] = useState(false);
  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

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
      await updateProfile({ firstName: fields.firstName.trim(), lastName: fields.lastName.trim(),
        email: fields.email.trim(), phone: fields.phone.trim() || null });
      onDone("Your profile has been updated.");
    } catch (error) {
      setErrors(Object.fromEntries(Object.entries(error.errors ?? {}).map(([name, list]) => [name, [].concat(list)[0]])));
      setMessage(error.message || "Failed to update profile");
      setBusy(false);
    }
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Edit profile">
      {message && <Banner onDismiss={() => setMessage(null)}>{message}</Banner>}
      <div className="form__row">
        <Field label="First Name" error={errors.firstName} required>
          <input name="firstName" autoComplete="given-name" value={fields.firstName} onChange={change} />
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
      <div className="order-card__actions">
        <button type="submit" className="button" disabled={busy}>{busy ? "Saving…" : "Save Changes"}</button>
        <button type="button" className="button button--secondary" onClick={() => onDone(null)} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}

function ProfileScreen() {
  usePageMeta("My Profile");
  const { user } = useAuth();
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState(null);

  return (
    <div className="container page narrow">
      <h1>My Profile</h1>
      {note && <Banner tone="success" onDismiss={() => setNote(null)}>{note}</Banner>}
      {editing ? (
        <ProfileForm user={user} onDone={(message) => { setEditing(false); setNote(message); }} />
      ) : (
        <section className="card" aria-label="Your details">
          <dl className="profile-facts">
            <div><dt>Name</dt><dd>{user.firstName} {user.lastName}</dd></div>
            <div><dt>Email</dt><dd>{user.email}{user.isVerified === false && " (not verified yet)"}</dd></div>
            <div><dt>Phone</dt><dd>{user.phone || "Not given"}</dd></div>
            {user.createdAt && <div><dt>Member since</dt><dd>{formatDate(user.createdAt)}</dd></div>}
          </dl>
          <div className="order-card__actions">
            <button type="button" className="button" onClick={() => { setNote(null); setEditing(true); }}>Edit Profile</button>
            <Link className="button button--secondary" to={paths.orders()}>My Orders</Link>
            <Link className="button button--secondary" to={paths.wishlist()}>Wishlist</Link>
          </div>
        </section>
      )}
    </div>
  );
}

export function Profile() {
  return <RequireSignIn><ProfileScreen /></RequireSignIn>;
}

export { Profile as Component };
