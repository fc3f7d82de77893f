// Links a lazy chunk's own stylesheet (see client/build.mjs, "?url" imports) and waits for it.
const loading = new Map();

/** Resolves once href's stylesheet applies; rejects when it cannot be loaded. Links each URL once. */
export function loadStylesheet(href) {
  if (!loading.has(href)) {
    const promise = new Promise((resolve, reject) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.onload = () => resolve();
      link.onerror = () => {
        link.remove();
        loading.delete(href); // let a later navigation try again
        reject(new Error(`The stylesheet ${href} could not be loaded.`));
      };
      document.head.append(link);
    });
    loading.set(href, promise);
  }
  return loading.get(href);
}
