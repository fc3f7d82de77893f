// /admin-login: the administrators' sign-in (product §2.5), which then returns to the screen that asked.
import { useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "../../../lib/router.jsx";
import { loginAdmin } from "../../../features/admin/api.js";
import { safeReturnPath } from "../../../features/admin/paths.js";
import { saveAdminSession } from "../../../features/admin/session.js";
import { useAdminSession } from "../../../features/admin/use-admin-session.js";
import { Alert } from "../../../features/admin/components/alert.jsx";

export function AdminLogin() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useAdminSession();
  const [values, setValues] = useState({ email: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const returnTo = safeReturnPath(params.get("from"));

  if (session && !busy) return <Navigate to={returnTo} replace />;

  const onChange = (event) => setValues((current) => ({ ...current, [event.target.name]: event.target.value }));

  const onSubmit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token, user } = await loginAdmin({ email: values.email.trim(), password: values.password });
      saveAdminSession({ token, user });
      navigate(returnTo, { replace: true });
    } catch (failure) {
      setError(failure.message || "Login failed. Please try again.");
      setBusy(false);
    }
  };

  return (
    <div className="adm-login">
      <title>Admin Login — Bookstore</title>
      <main className="adm-login__card" aria-labelledby="admin-login-title">
        <p className="adm-login__brand"><span className="adm-side__logo" aria-hidden="true">B</span>Bookstore</p>
        <h1 id="admin-login-title">Admin Login</h1>
        <p className="adm-login__subtitle">Access the bookstore administration panel</p>
        {params.get("from") && !error && (
          <p className="adm-login__note">Please sign in as an administrator to continue.</p>
        )}
        {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
        <form onSubmit={onSubmit} className="adm-form" aria-busy={busy}>
          <div className="adm-field">
            <label htmlFor="admin-email">Email</label>
            <input id="admin-email" name="email" type="email" autoComplete="username" required
              value={values.email} onChange={onChange} disabled={busy} />
          </div>
          <div className="adm-field">
            <label htmlFor="admin-password">Password</label>
            <input id="admin-password" name="password" type="password" autoComplete="current-password" required
              value={values.password} onChange={onChange} disabled={busy} />
          </div>
          <button type="submit" className="adm-button adm-button--block" disabled={busy}>
            {busy ? "Signing In..." : "Sign In"}
          </button>
        </form>
        <p className="adm-login__foot">
          Administrator accounts are created by the system administrator. Contact them for your credentials.
        </p>
        <p className="adm-login__foot"><Link to="/">← Back to the store</Link></p>
      </main>
    </div>
  );
}
