// The profile's "Close my account": what happens, then the password (or, for Google accounts, the e-mail typed).
import { useState } from "react";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { closeAccount } from "../account-api.js";
import { fieldErrors } from "../password-rules.js";

/** onClosed(message) runs once the server has closed the account (the caller forgets the session). */
export function CloseAccount({ user, onClosed }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const withPassword = user.hasPassword !== false;

  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const reply = await closeAccount(withPassword ? { password: value } : { confirmation: value });
      onClosed(reply.message);
    } catch (failure) {
      const fields = fieldErrors(failure);
      const onField = fields.password || fields.confirmation;
      setError(onField ? { field: onField } : { text: failure.message });
      setBusy(false);
    }
  }

  return (
    <section className="card profile-section" aria-labelledby="close-title">
      <h2 id="close-title">Close My Account</h2>
      <p>
        Closing your account erases your name, e-mail address, phone number, saved addresses, cart, wishlist,
        reviews and newsletter subscription, and signs out every device. Your past orders are kept for our
        accounts, without your name or contact details. You cannot undo this, but you may register again.
      </p>
      {open ? (
        <form className="form" onSubmit={submit} noValidate aria-label="Close my account">
          {error?.text && <Banner>{error.text}</Banner>}
          {withPassword ? (
            <>
              <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
              <Field label="Your Password" error={error?.field} required>
                <input name="password" type="password" autoComplete="current-password" value={value}
                  onChange={(event) => setValue(event.target.value)} />
              </Field>
            </>
          ) : (
            <Field label={`Type your e-mail address (${user.email}) to confirm`} error={error?.field} required>
              <input name="confirmation" type="email" autoComplete="off" value={value}
                onChange={(event) => setValue(event.target.value)} />
            </Field>
          )}
          <div className="order-card__actions">
            <button type="submit" className="button button--danger" disabled={busy || !value}>
              {busy ? "Closing…" : "Close My Account Permanently"}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setOpen(false)} disabled={busy}>Keep My Account</button>
          </div>
        </form>
      ) : (
        <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>Close My Account…</button>
      )}
    </section>
  );
}
