// /forgot-password: ask for a password-reset link. The answer is the same whether or not the
// address has an account, so the screen cannot be used to find out who shops here.
import { useState } from "react";
import { Link, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Field } from "../../components/ui/field.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { forgotPassword } from "../../features/auth/account-api.js";
import { fieldErrors } from "../../features/auth/password-rules.js";

const SENT = "If an account exists for that address, we have e-mailed it a link to reset the password. "
  + "The link works for 1 hour.";

export function ForgotPassword() {
  usePageMeta("Forgot Password");
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [error, setError] = useState(null);
  const [problem, setProblem] = useState(null);
  const [sent, setSent] = useState(null);
  const [busy, setBusy] = useState(false);

  async function submit(event) {
    event.preventDefault();
    setProblem(null);
    if (!email.trim()) {
      setError("E-mail is required.");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const reply = await forgotPassword(email.trim());
      setSent(reply.message || SENT);
    } catch (failure) {
      setError(fieldErrors(failure).email ?? null);
      setProblem(failure.message || "Failed to send the reset link. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="container page auth-page">
      <h1>Forgot Password</h1>
      {sent ? (
        <>
          <Banner tone="success">{sent}</Banner>
          <p>Did not get it? Check your spam folder, or <button type="button" className="link-button"
            onClick={() => setSent(null)}>ask again</button> in a few minutes.</p>
        </>
      ) : (
        <>
          <p>Enter the e-mail address of your account and we will send you a link to set a new password.</p>
          <form className="form" onSubmit={submit} noValidate>
            {problem && <Banner onDismiss={() => setProblem(null)}>{problem}</Banner>}
            <Field label="Email" error={error} required>
              <input name="email" type="email" autoComplete="email" autoFocus value={email}
                onChange={(event) => setEmail(event.target.value)} />
            </Field>
            <button type="submit" className="button form__submit" disabled={busy}>
              {busy ? "Sending…" : "Send Reset Link"}
            </button>
          </form>
        </>
      )}
      <p className="auth-page__switch">Remembered it? <Link to={paths.login()}>Login</Link></p>
    </div>
  );
}

export { ForgotPassword as Component };
