// External sign-in lands here (/auth/callback) with #token=...&user=... (or ?token=... from older
// links, or #error=<code>): store the session and go on (product §2.4 messages and delays).
import { useEffect, useState } from "react";
import { useNavigate } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { setAuth } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { forgetReturn, peekReturn } from "../../features/auth/return-to.js";

const SUCCESS_DELAY_MS = 1500;
const FAILURE_DELAY_MS = 3000;

const INVALID_RESPONSE = "Authentication failed: Invalid response from provider";

/** What the shopper reads for each error code of the server's callback (docs/architecture.md). */
const FAILURES = {
  access_denied: "Authentication failed: Google sign-in was cancelled.",
  email_not_verified: "Authentication failed: Your Google account's e-mail address is not verified. "
    + "Verify it with Google, or register with your e-mail and a password.",
  invalid_state: "Authentication failed: The sign-in took too long or was already used. Please try again.",
  invalid_request: INVALID_RESPONSE,
  invalid_token: INVALID_RESPONSE,
  provider_unavailable: "Authentication failed: Google could not be reached. Please try again later.",
  not_configured: "Authentication failed: Google sign-in is not available in this shop.",
  account_conflict: "Authentication failed: This account cannot sign in with Google. Please log in with your "
    + "e-mail and password.",
};
const UNKNOWN_FAILURE = "Authentication failed: Something went wrong. Please try again.";

/** {tone, text, session?} for the parameters the provider's round trip handed back. */
export function readSignIn(fragment, query) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const fallback = new URLSearchParams(query);
  const error = params.get("error") ?? fallback.get("error");
  if (error) return { tone: "error", text: FAILURES[error] ?? UNKNOWN_FAILURE };
  const token = params.get("token") ?? fallback.get("token");
  const rawUser = params.get("user") ?? fallback.get("user");
  if (!token || !rawUser) return { tone: "error", text: "Authentication failed: Missing token or user data" };
  let user;
  try {
    user = JSON.parse(rawUser);
  } catch {
    user = null;
  }
  if (!user || typeof user !== "object") return { tone: "error", text: INVALID_RESPONSE };
  return { tone: "success", text: "Authentication successful! Redirecting...", session: { token, user } };
}

export function AuthCallback() {
  usePageMeta("Signing In");
  const navigate = useNavigate();
  // Read once, before the address is cleaned: a second effect run (StrictMode) must see the same answer.
  const [result] = useState(() => ({
    ...readSignIn(window.location.hash, window.location.search),
    next: peekReturn(), // where the sign-in started, kept before leaving for Google
  }));

  useEffect(() => {
    // The token must not stay in the address bar or the history.
    window.history.replaceState(window.history.state, "", window.location.pathname);
    forgetReturn();
    if (result.session) {
      setAuth(result.session); // announces the change to every listener
      window.dispatchEvent(new CustomEvent("user-logged-in", { detail: result.session.user })); // product §2.4
    }
    // Product §2.4: success goes on after 1.5 s, a failure goes home after 3 s.
    const timer = setTimeout(() => navigate(result.session ? result.next : paths.home(), { replace: true }),
      result.session ? SUCCESS_DELAY_MS : FAILURE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate, result]);

  return (
    <div className="container page auth-page">
      <h1>Signing you in</h1>
      <Banner tone={result.tone}>{result.text}</Banner>
    </div>
  );
}

export { AuthCallback as Component };
