// The one route table. Screens other than home load lazily, each in its own chunk.
import { createBrowserRouter } from "react-router-dom";
import { SiteLayout } from "../components/layout/site-layout.jsx";
import { RouteError } from "./routes/route-error.jsx";
import { Home } from "./routes/home.jsx";
import { Loading } from "../components/ui/request-state.jsx";

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
]);
