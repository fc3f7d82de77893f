// An /admin/... address the route table does not know.
import { Link, useLocation } from "../../../lib/router.jsx";
import { adminPaths } from "../../../features/admin/paths.js";

export function AdminNotFound() {
  const { pathname } = useLocation();
  return (
    <>
      <title>Page not found — Bookstore Admin</title>
      <header className="adm-page-head"><h1>Page not found</h1></header>
      <p>There is no admin page at <code>{pathname}</code>.</p>
      <p><Link className="adm-button" to={adminPaths.dashboard()}>Go to the dashboard</Link></p>
    </>
  );
}
