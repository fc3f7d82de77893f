// Login (/login): the shopper signs in and goes back where they came from (or home) after 1.5 s.
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { LoginForm } from "../../features/auth/components/login-form.jsx";
import { GoogleSignIn } from "../../features/auth/components/google-sign-in.jsx";
import { safePath } from "../../features/auth/return-to.js";

/** Only same-site paths are followed after sign-in, never another site named in the URL. */
export const safeFrom = safePath;

export function Login() {
  usePageMeta("Login");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // A screen that sent the shopper here may say why (the password reset screen does).
  const notice = useLocation().state?.notice;
  const { isSignedIn } = useAuth();
  const from = safeFrom(params.get("from"));
  const done = () => navigate(from, { replace: true });
  return (
    <div className="container page auth-page">
      <h1>Login</h1>
      <p>Welcome back! Sign in to see your orders and wishlist.</p>
      {notice && <Banner tone="success">{notice}</Banner>}
      {isSignedIn && !params.has("from")
        ? <p>You are signed in. <Link to={paths.home()}>Go to the home page</Link></p>
        : <><LoginForm onDone={done} delayMs={1500} autoFocus /><GoogleSignIn returnTo={from} /></>}
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
