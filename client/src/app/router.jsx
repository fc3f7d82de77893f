// The one route table. Screens other than home load lazily, each in its own chunk.
import { createBrowserRouter } from "react-router-dom";
import { SiteLayout } from "../components/layout/site-layout.jsx";
import { RouteError } from "./routes/route-error.jsx";
import { Home } from "./routes/home.jsx";
import { Loading } from "../components/ui/request-state.jsx";

/**
 * The admin area is one lazy chunk with its own stylesheet, loaded on the first visit to an admin
 * address: a shopper downloads neither. Each screen waits for the styles, so none flashes unstyled.
 */
function adminScreen(name) {
  return async () => {
    const chunk = await import("./routes/admin/admin-chunk.js");
    await chunk.stylesReady();
    return { Component: chunk[name] };
  };
}

const loadingPage = <div className="container"><Loading /></div>;

export const router = createBrowserRouter([
  {
    element: <SiteLayout />,
    errorElement: <RouteError />,
    // Shown for the moment a lazy screen's chunk loads on a first visit straight to it.
    hydrateFallbackElement: <div className="container"><Loading /></div>,
    children: [
      { index: true, element: <Home />, errorElement: <RouteError /> },
      {
        path: "*",
        lazy: async () => ({ Component: (await import("./routes/not-found.jsx")).NotFound }),
      },
    ],
  },
  // Siblings of the storefront layout: no shop header or footer on admin addresses (spec §2).
  {
    path: "/admin-login",
    lazy: adminScreen("AdminLogin"),
    errorElement: <RouteError />,
    hydrateFallbackElement: loadingPage,
  },
  {
    path: "/admin",
    lazy: adminScreen("AdminLayout"),
    errorElement: <RouteError />,
    hydrateFallbackElement: loadingPage,
    children: [
      { index: true, lazy: adminScreen("Dashboard"), errorElement: <RouteError /> },
      { path: "books", lazy: adminScreen("ManageBooks"), errorElement: <RouteError /> },
      { path: "books/new", lazy: adminScreen("BookEditor"), errorElement: <RouteError /> },
      { path: "books/edit/:id", lazy: adminScreen("BookEditor"), errorElement: <RouteError /> },
      { path: "orders", lazy: adminScreen("ManageOrders"), errorElement: <RouteError /> },
      { path: "contacts", lazy: adminScreen("ContactMessages"), errorElement: <RouteError /> },
      { path: "*", lazy: adminScreen("AdminNotFound") },
    ],
  },
]);
