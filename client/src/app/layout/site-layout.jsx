// The shopper's page frame: skip link, header, the current screen, footer, and the book dialog.
import { lazy, Suspense } from "react";
import { Outlet, useLocation } from "../../lib/router.jsx";
import { BookDetailProvider } from "../../features/catalogue/book-detail-context.jsx";
import { Loading } from "../../components/ui/request-state.jsx";
import { RouteErrorBoundary } from "../routes/route-error.jsx";
import { Header } from "./header.jsx";
import { ScrollManager } from "../../components/layout/scroll-manager.jsx";
import { RouteFocus } from "../../components/layout/route-focus.jsx";

// The book dialog's code loads on its first open.
const BookDetailModal = lazy(() => import("../components/book-detail-modal.jsx"));
// The footer sits below every screen's first view: its code (links, newsletter box) follows the first
// paint, which keeps the home page within its JavaScript budget now that the header carries a search box.
const Footer = lazy(() => import("./footer.jsx").then((module) => ({ default: module.Footer })));

/** Only shopper routes sit under this layout: /admin screens are its siblings with their own frame. */
export function SiteLayout() {
  const { pathname } = useLocation();
  return (
    <BookDetailProvider modal={BookDetailModal}>
      <div className="site">
        <a className="skip-link" href="#main">Skip to content</a>
        <Header />
        <main id="main" className="site__main" tabIndex={-1}>
          {/* A new address gets a fresh boundary, so one broken screen does not stick. */}
          <RouteErrorBoundary key={pathname}>
            <Suspense fallback={<div className="container page"><Loading /></div>}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
        <ScrollManager />
        <RouteFocus />
      </div>
    </BookDetailProvider>
  );
}
