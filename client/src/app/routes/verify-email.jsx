// /verify-email?token=...: the link in the verification e-mail. Posts the token once, then says
// how it went; a signed-in shopper with an unverified address may ask for a new link.
import { useCallback, useEffect } from "react";
import { Link, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { getToken, getUser, setAuth } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner, Loading } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { verifyEmail } from "../../features/auth/account-api.js";
import { ResendVerification } from "../../features/auth/components/resend-verification.jsx";

// A link works once: one request per token even when React mounts the screen twice (StrictMode).
const attempts = new Map();
function verifyOnce(token) {
  if (!attempts.has(token)) {
    attempts.set(token, verifyEmail(token).catch((error) => {
      if (error.status === 0) attempts.delete(token); // never reached the server: a reload may try again
      throw error;
    }));
  }
  return attempts.get(token);
}

function NewLinkOffer() {
  const { user, isSignedIn } = useAuth();
  if (!isSignedIn) {
    return (
      <p>
        Need a new link? <Link to={paths.login(paths.profile())}>Log in</Link> and ask for one from your profile.
      </p>
    );
  }
  if (user.isVerified) {
    return <p>Your e-mail address {user.email} is verified already.</p>;
  }
  return (
    <>
      <p>We can send a new link to {user.email}.</p>
      <ResendVerification className="button" />
    </>
  );
}

export function VerifyEmail() {
  usePageMeta("Verify E-mail");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const request = useCallback(
    () => (token ? verifyOnce(token) : Promise.reject(new Error("This link is incomplete. Please open the whole link from the e-mail."))),
    [token],
  );
  const { status, data, error } = useRequest(request);

  // The signed-in account is the one verified: show it as verified without waiting for a reload.
  useEffect(() => {
    const stored = getUser();
    if (status === "success" && data?.user && stored && stored._id === data.user._id) {
      setAuth({ token: getToken(), user: { ...stored, ...data.user } });
    }
  }, [status, data]);

  return (
    <section className="container page narrow" aria-labelledby="verify-email-title">
      <h1 id="verify-email-title">Verify your e-mail</h1>
      {status === "loading" && <Loading label="Verifying your e-mail address…" />}
      {status === "success" && (
        <>
          <Banner tone="success">{data.message || "Thank you! Your e-mail address is verified."}</Banner>
          <p className="account-actions">
            <Link className="button" to={paths.books()}>Browse books</Link>
            <Link className="button button--secondary" to={paths.profile()}>My Profile</Link>
          </p>
        </>
      )}
      {status === "error" && (
        <>
          <Banner>{error.message}</Banner>
          <NewLinkOffer />
        </>
      )}
    </section>
  );
}

export { VerifyEmail as Component };
