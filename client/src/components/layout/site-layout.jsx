// The page frame: skip link, header, the current screen and footer; admin screens bring their own.
import { Outlet, ScrollRestoration, useLocation } from "react-router-dom";
import { Header } from "./header.jsx";
import { Footer } from "./footer.jsx";

export function SiteLayout() {
  const { pathname } = useLocation();
  // Spec: the site header and footer are hidden on every path starting with /admin.
  const showChrome = !pathname.startsWith("/admin");
  return (
    <div className="site">
      {showChrome && <a className="skip-link" href="#main">Skip to content</a>}
      {showChrome && <Header />}
      <main id="main" className="site__main" tabIndex={-1}>
        <Outlet />
      </main>
      {showChrome && <Footer />}
      <ScrollRestoration />
    </div>
  );
}
