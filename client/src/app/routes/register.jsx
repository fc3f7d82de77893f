// Register (/register): a new shopper account, signed in, then home (or back) after 2 s.
import { Link, useNavigate, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { RegisterForm } from "../../features/auth/components/register-form.jsx";
import { GoogleSignIn } from "../../features/auth/components/google-sign-in.jsx";
import { safeFrom } from "./login.jsx";

export function Register() {
  usePageMeta("Create Account");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const from = safeFrom(params.get("from"));
  return (
    <div className="container page auth-page">
      <h1>Create Account</h1>
      <p>Register to follow your orders and keep a wishlist.</p>
      <RegisterForm onDone={() => navigate(from, { replace: true })} delayMs={2000} autoFocus />
      <GoogleSignIn returnTo={from} />
      <p className="auth-page__switch">
        Already have an account? <Link to={paths.login(params.get("from") ?? undefined)}>Login</Link>
      </p>
    </div>
  );
}

export { Register as Component };
