// The client's entry: links the full stylesheet, then mounts the router into #root.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.jsx";
import "./styles.css";

/**
 * index.html paints its shell with the few rules it needs inlined and only preloads the full
 * stylesheet (client/build.mjs), so the stylesheet never blocks the first paint. Link it now and
 * resolve once it applies, so no screen renders unstyled. (Without the preload tag there is nothing
 * to wait for.)
 */
function stylesheetApplied() {
  const preload = document.querySelector("link[data-app-styles]");
  if (!preload) return Promise.resolve();
  const sheet = document.createElement("link");
  sheet.rel = "stylesheet";
  sheet.href = preload.href;
  const applied = new Promise((resolve) => {
    sheet.addEventListener("load", resolve);
    sheet.addEventListener("error", resolve); // render anyway: unstyled beats blank
  });
  preload.after(sheet);
  return applied;
}

stylesheetApplied().then(() => {
  createRoot(document.getElementById("root")).render(
    <StrictMode>
      <AppRouter />
    </StrictMode>,
  );
});
