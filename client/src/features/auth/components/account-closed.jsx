// What the profile shows once the account is closed.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { usePageMeta } from "../../../lib/use-page-meta.js";
import { Banner } from "../../../components/ui/request-state.jsx";

/** After closing: the session and the browser's cart are forgotten here (the server ended the session already). */
export function AccountClosed({ message }) {
  usePageMeta("Account closed");
  return (
    <div className="container page narrow">
      <h1>Account closed</h1>
      <Banner tone="success">{message}</Banner>
      <Link className="button" to={paths.home()}>Continue to the shop</Link>
    </div>
  );
}
