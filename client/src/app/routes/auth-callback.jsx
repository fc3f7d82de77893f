// External sign-in lands here (/auth/callback) with #token=...&user=... (or ?token=... from older
// links, or #error=...): store the session and go home (spec §2 messages and delays).
import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { setAuth } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Banner } from "../../components/ui/request-state.jsx";

const SUCCESS_DELAY_MS = 1500;
const FAILURE_DELAY_MS = 3000;

/** {tone, text} for the parameters the provider's round trip handed back; stores the session on success. */
export function completeSignIn(fragment, query) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const fallback = new URLSearchParams(query);
  const error = params.get("error") ?? fallback.get("error");
  if (error) return { tone: "error", text: `Authentication failed: ${error}` };
  const token = params.get("token") ?? fallback.get("token");
  const rawUser = params.get("user") ?? fallback.get("user");
  if (!token || !rawUser) return { tone: "error", text: "Authentication failed: Missing token or user data" };
  let user;
  try {
    user = JSON.parse(rawUser);
  } catch {
    user = null;
  }
  if (!user || typeof user !== "object") return { tone: "error", text: "Authentication failed: Invalid response from provider" };
  setAuth({ token, user }); // announces the change to every listener (the spec's user-logged-in event)
  window.dispatchEvent(new CustomEvent("user-logged-in", { detail: user }));
  return { tone: "success", text: "Authentication successful! Redirecting..." };
}

export function AuthCallback() {
  usePageMeta("Signing In");
  const navigate = useNavigate();
  const [result, setResult] = useState(null);

  useEffect(() => {
    const outcome = completeSignIn(window.location.hash, window.location.search);
    // The token must not stay in the address bar or the history.
    window.history.replaceState(null, "", window.location.pathname);
    setResult(outcome);
    const timer = setTimeout(() => navigate(paths.home(), { replace: true }),
      outcome.tone === "success" ? SUCCESS_DELAY_MS : FAILURE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <div className="container page auth-page">
      <h1>Signing you in</h1>
      {result ? <Banner tone={result.tone}>{result.text}</Banner> : <p role="status">Completing sign-in…</p>}
    </div>
  );
}

export { AuthCallback as Component };
