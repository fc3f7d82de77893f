// Shown when a screen throws or its code cannot be loaded (for example after a deploy).
import { Component } from "react";
import { paths } from "../../config/paths.js";

function RouteErrorScreen() {
  return (
    <section className="container notice-page" role="alert" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <p>This page could not be shown. Reloading usually helps.</p>
      <p className="notice-page__actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>Reload</button>
        {/* A full page load: the app's code may be what failed. */}
        <a className="button button--secondary" href={paths.home()}>Home page</a>
      </p>
    </section>
  );
}

/** Catches render and chunk-load errors of the screens below it; give it key={pathname} to reset. */
export class RouteErrorBoundary extends Component {
  constructor(props) {
    super(props);
    this.state = { error: null };
  }

  static getDerivedStateFromError(error) {
    return { error };
  }

  componentDidCatch(error) {
    console.error(error);
  }

  render() {
    return this.state.error ? <RouteErrorScreen /> : this.props.children;
  }
}
