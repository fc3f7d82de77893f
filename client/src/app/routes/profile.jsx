// Profile (/profile): the signed-in shopper's details, viewed and edited; e-mail verification and
// the password.
import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { clearAuth, getUser, setAuth } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Field } from "../../components/ui/field.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { changePassword } from "../../features/auth/account-api.js";
import { ResendVerification } from "../../features/auth/components/resend-verification.jsx";
import { CloseAccount } from "../../features/auth/components/close-account.jsx";
import { clearStoredCart } from "../../features/cart/cart-storage.js";
import { fieldErrors, newPasswordErrors, PASSWORD_HINT } from "../../features/auth/password-rules.js";
import { formatDate } from "../../features/orders/labels.js";
import { AddressBook } from "../../features/addresses/components/address-book.jsx";
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
      <div className="form__row">
        <Field label="First Name" error={errors.firstName} required>
          <input name="firstName" autoComplete="given-name" value={fields.firstName} onChange={change} />
        </Field>
        <Field label="Last Name" error={errors.lastName} required>
          <input name="lastName" autoComplete="family-name" value={fields.lastName} onChange={change} />
        </Field>
      </div>
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

function VerifiedBadge({ verified }) {
  return verified
    ? <span className="status-badge status-badge--delivered">Verified</span>
    : <span className="status-badge status-badge--pending">Not verified</span>;
}

const EMPTY_PASSWORDS = { currentPassword: "", password: "", confirmPassword: "" };

/** Current password, then the new one twice; this browser keeps the fresh token the server returns. */
function ChangePasswordForm() {
  const [fields, setFields] = useState(EMPTY_PASSWORDS);
  const [errors, setErrors] = useState({});
  const [message, setMessage] = useState(null);
  const [busy, setBusy] = useState(false);
  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

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
      <Field label="New Password" error={errors.password} hint={PASSWORD_HINT} required>
        <input name="password" type="password" autoComplete="new-password" value={fields.password} onChange={change} />
      </Field>
      <Field label="Confirm New Password" error={errors.confirmPassword} required>
        <input name="confirmPassword" type="password" autoComplete="new-password" value={fields.confirmPassword} onChange={change} />
      </Field>
      <p className="field__hint">Other devices signed in to this account will be signed out.</p>
      <button type="submit" className="button form__submit" disabled={busy}>{busy ? "Saving…" : "Change Password"}</button>
    </form>
  );
}

function PasswordSection({ user }) {
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

function ProfileScreen({ onClosed }) {
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
            <div>
              <dt>Email</dt>
              <dd className="profile-facts__email">{user.email} <VerifiedBadge verified={user.isVerified !== false} /></dd>
            </div>
            <div><dt>Phone</dt><dd>{user.phone || "Not given"}</dd></div>
            {user.createdAt && <div><dt>Member since</dt><dd>{formatDate(user.createdAt)}</dd></div>}
          </dl>
          {user.isVerified === false && (
            <div className="profile-verify">
              <p>Please verify your e-mail address: open the link we e-mailed to {user.email}. It works for 24 hours.</p>
              <ResendVerification />
            </div>
          )}
          <div className="order-card__actions">
            <button type="button" className="button" onClick={() => { setNote(null); setEditing(true); }}>Edit Profile</button>
            <Link className="button button--secondary" to={paths.orders()}>My Orders</Link>
            <Link className="button button--secondary" to={paths.wishlist()}>Wishlist</Link>
            <Link className="button button--secondary" to={paths.myAlerts()}>My Alerts</Link>
          </div>
        </section>
      )}
      <AddressBook />
      <PasswordSection user={user} />
      <CloseAccount user={user} onClosed={onClosed} />
    </div>
  );
}

/** After closing: the session and the browser's cart are forgotten here (the server ended the session already). */
function AccountClosed({ message }) {
  usePageMeta("Account closed");
  return (
    <div className="container page narrow">
      <h1>Account closed</h1>
      <Banner tone="success">{message}</Banner>
      <Link className="button" to={paths.home()}>Continue to the shop</Link>
    </div>
  );
}

export function Profile() {
  const [closed, setClosed] = useState(null);
  if (closed) return <AccountClosed message={closed} />;
  return (
    <RequireSignIn>
      <ProfileScreen onClosed={(message) => { setClosed(message); clearAuth(); clearStoredCart(); }} />
    </RequireSignIn>
  );
}

export { Profile as Component };
