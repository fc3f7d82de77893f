// Login (/login): the shopper signs in and goes back where they came from (or home) after 1.5 s.
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { LoginForm } from "../../features/auth/components/login-form.jsx";

/** Only same-site paths are followed after sign-in, never another site named in the URL. */
export function safeFrom(from) {
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : paths.home();
}

export function Login() {
  usePageMeta("Login");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { isSignedIn } = useAuth();
  const from = safeFrom(params.get("from"));
  const done = () => navigate(from, { replace: true });
  return (
    <div className="container page auth-page">
      <h1>Login</h1>
      <p>Welcome back! Sign in to see your orders and wishlist.</p>
      {isSignedIn && !params.has("from")
        ? <p>You are signed in. <Link to={paths.home()}>Go to the home page</Link></p>
        : <LoginForm onDone={done} delayMs={1500} autoFocus />}
      <p className="auth-page__switch">
        Don't have an account? <Link to={paths.register(params.get("from") ?? undefined)}>Sign Up</Link>
      </p>
    </div>
  );
}

/** A screen for signed-in shoppers: others go to /login?from=... and come back after signing in. */
export function RequireSignIn({ children }) {
  const { isSignedIn } = useAuth();
  if (!isSignedIn) {
    const from = window.location.pathname + window.location.search;
    return <Navigate to={paths.login(from)} replace />;
  }
  return children;
}

export { Login as Component };
