// /undo-email-change?token=...: the "this wasn't me" link mailed to the old address when someone asked to change
// the account's e-mail. Posts the token once; the account keeps its old address and every session ends, this
// browser's included, so the shopper signs in again.
import { useCallback, useEffect } from "react";
import { Link, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { clearAuth, getUser } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner, Loading } from "../../components/ui/request-state.jsx";
import { undoEmailChange } from "../../features/auth/account-api.js";

// One request per token even when React mounts the screen twice (StrictMode).
const attempts = new Map();
function undoOnce(token) {
  if (!attempts.has(token)) {
    attempts.set(token, undoEmailChange(token).catch((error) => {
      if (error.status === 0) attempts.delete(token); // never reached the server: a reload may try again
      throw error;
    }));
  }
  return attempts.get(token);
}

export function UndoEmailChange() {
  usePageMeta("Keep Your E-mail Address");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const request = useCallback(
    () => (token ? undoOnce(token) : Promise.reject(new Error("This link is incomplete. Please open the whole link from the e-mail."))),
    [token],
  );
  const { status, data, error } = useRequest(request);

  // Every session of the account has ended: this browser's, if it is that account, is gone too.
  useEffect(() => {
    if (status === "success" && data?.user && getUser()?._id === data.user._id) clearAuth();
  }, [status, data]);

  return (
    <section className="container page narrow" aria-labelledby="undo-email-change-title">
      <h1 id="undo-email-change-title">Keep your e-mail address</h1>
      {status === "loading" && <Loading label="Keeping your e-mail address…" />}
      {status === "success" && (
        <>
          <Banner tone="success">{data.message}</Banner>
          <p className="account-actions">
            <Link className="button" to={paths.login(paths.profile())}>Log in</Link>
            <Link className="button button--secondary" to={paths.forgotPassword(data.user.email)}>Choose a new password</Link>
          </p>
        </>
      )}
      {status === "error" && (
        <>
          <Banner>{error.message}</Banner>
          <p>If someone else has your account, please <Link to={paths.contact()}>write to us</Link>.</p>
        </>
      )}
    </section>
  );
}

export { UndoEmailChange as Component };
