// Shown when a screen throws or its code cannot be loaded (for example after a deploy).
import { isRouteErrorResponse, Link, useRouteError } from "react-router-dom";
import { paths } from "../../config/paths.js";

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : "This page could not be shown. Reloading usually helps.";
  return (
    <section className="container notice-page" role="alert" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <p>{message}</p>
      <p className="notice-page__actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>Reload</button>
        <Link className="button button--secondary" to={paths.home()} reloadDocument>Home page</Link>
      </p>
    </section>
  );
}
