// /reset-password?token=...: the link in the password-reset e-mail. A new password typed twice;
// success ends every session of the account, so the shopper signs in again with it.
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { getProfile } from "../../features/auth/api.js";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { resetPassword } from "../../features/auth/account-api.js";
import { fieldErrors, newPasswordErrors } from "../../features/auth/password-rules.js";
import { NewPasswordFields } from "../../features/auth/components/new-password-fields.jsx";

const DONE = "Your password has been changed. Please sign in with your new password.";

export function ResetPassword() {
  usePageMeta("Reset Password");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const { isSignedIn } = useAuth();
  const [fields, setFields] = useState({ password: "", confirmPassword: "" });
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState(token ? null : { text: "This link is incomplete. Please open the whole link from the e-mail." });
  const [busy, setBusy] = useState(false);
  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

  async function submit(event) {
    event.preventDefault();
    const local = newPasswordErrors(fields.password, fields.confirmPassword, "New password");
    setErrors(local);
    setProblem(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const reply = await resetPassword(token, fields.password);
      // Every session of the account has ended; if this browser held one, the check forgets it.
      if (isSignedIn) await getProfile().catch(() => {});
      navigate(paths.login(), { replace: true, state: { notice: reply.message || DONE } });
    } catch (error) {
      const { token: linkProblem, password } = fieldErrors(error);
      setErrors(password ? { password } : {});
      // A bad, used or expired link cannot be fixed here: the shopper needs a new one.
      setProblem({ text: linkProblem ?? error.message ?? "Failed to reset the password.", newLink: Boolean(linkProblem) });
      setBusy(false);
    }
  }

  return (
    <div className="container page auth-page">
      <h1>Reset Password</h1>
      {problem && (
        <Banner onDismiss={token ? () => setProblem(null) : undefined}>
          {problem.text}
          {(problem.newLink || !token) && <> <Link to={paths.forgotPassword()}>Ask for a new link</Link></>}
        </Banner>
      )}
      {token && (
        <form className="form" onSubmit={submit} noValidate aria-label="New password">
          <p>Choose a new password for your account.</p>
          <NewPasswordFields values={fields} errors={errors} change={change} autoFocus />
          <button type="submit" className="button form__submit" disabled={busy}>
            {busy ? "Saving…" : "Set New Password"}
          </button>
        </form>
      )}
    </div>
  );
}

export { ResetPassword as Component };
