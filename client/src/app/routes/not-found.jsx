// The answer to any path the route table does not know.
import { Link, useLocation } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";

export function NotFound() {
  const { pathname } = useLocation();
  usePageMeta("Page not found", "There is no page at this address.");
  return (
    <section className="container notice-page" aria-labelledby="not-found-title">
      <p className="notice-page__code" aria-hidden="true">404</p>
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code className="notice-page__path">{pathname}</code>. It may have moved, or the
        address may be mistyped.
      </p>
      <p>
        <Link className="button" to={paths.home()}>Go to the home page</Link>
      </p>
    </section>
  );
}

export { NotFound as Component };
