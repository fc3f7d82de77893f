// The URL state of an admin list: page, search and named filters in the query string, so a list is
// shareable and Back returns to it as it was.
import { useCallback } from "react";
import { useSearchParams } from "../../lib/router.jsx";
import { useResettingState } from "../../lib/use-resetting-state.js";

/**
 * Read page (1 or more), search and the filters named in `choices` ({status: ["new", ...]}) from the URL;
 * an unknown filter value reads as "" (all). `update({...})` writes changes back: empty values and page 1
 * leave the URL, so the plain address is the first page of everything. `draft` is the search box's text
 * until it is submitted with `submitSearch()`.
 */
export function useListParams(choices = {}) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(Number.parseInt(params.get("page") ?? "1", 10) || 1, 1);
  const search = params.get("search") ?? "";
  const filters = Object.fromEntries(Object.entries(choices).map(([name, allowed]) => {
    const value = params.get(name) ?? "";
    return [name, allowed === null || allowed.includes(value) ? value : ""];
  }));
  // The box shows the URL's search again whenever that changes (Back, a link, Clear).
  const [draft, setDraft] = useResettingState(search);

  const update = useCallback((changes) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === "" || value == null || (key === "page" && value === 1)) next.delete(key);
        else next.set(key, String(value));
      }
      return next;
    });
  }, [setParams]);

  const submitSearch = useCallback(() => update({ search: draft.trim(), page: 1 }), [draft, update]);
  const clear = useCallback(() => {
    setDraft("");
    setParams(new URLSearchParams());
  }, [setDraft, setParams]);
  const filtered = Boolean(search) || Object.values(filters).some(Boolean);
  return { page, search, filters, filtered, draft, setDraft, update, submitSearch, clear };
}

/** One page of an already loaded list (for lists the server sends whole): {rows, page, totalPages}. */
export function pageOf(items, page, size) {
  const totalPages = Math.max(Math.ceil(items.length / size), 1);
  const shown = Math.min(page, totalPages);
  return { rows: items.slice((shown - 1) * size, shown * size), page: shown, totalPages };
}
