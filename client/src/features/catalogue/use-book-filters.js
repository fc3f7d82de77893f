// The /books screen's filters, sort and page, read from and written to the URL.
import { useCallback, useMemo } from "react";
import { useSearchParams } from "../../lib/router.jsx";
import { KEEP_SCROLL } from "../../components/layout/scroll-manager.jsx";
import { useShop } from "../../lib/shop.js";

export const PAGE_SIZE = 12;
export const SORTS = [
  ["newest", "Newest first"],
  ["oldest", "Oldest first"],
  ["price-low", "Price: low to high"],
  ["price-high", "Price: high to low"],
  ["title", "Title: A to Z"],
  ["bestselling", "Best selling"],
  ["rating", "Highest rated"],
];
/** The fixed media (the API's values and their labels). */
export const MEDIA = [["english", "English"], ["hindi", "Hindi"], ["bilingual", "Bilingual"]];
const FILTER_KEYS = ["search", "category", "sortBy", "minPrice", "maxPrice", "language", "format", "medium", "subject"];

/** A rupee amount from the URL, or "" when it is not a sensible one (the API would refuse it). */
function rupees(text) {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text ?? "")) return "";
  return text;
}

/** Clean values: what the URL says, minus anything the API would reject with a 422. */
function readFilters(params, formats) {
  const sortBy = params.get("sortBy") ?? "";
  const format = params.get("format") ?? "";
  const medium = params.get("medium") ?? "";
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  const minPrice = rupees(params.get("minPrice"));
  let maxPrice = rupees(params.get("maxPrice"));
  // A link with the bounds the wrong way round keeps its minimum (the API refuses min > max).
  if (minPrice && maxPrice && Number(minPrice) > Number(maxPrice)) maxPrice = "";
  return {
    search: (params.get("search") ?? "").slice(0, 200),
    category: (params.get("category") ?? "").slice(0, 60),
    sortBy: SORTS.some(([value]) => value === sortBy) ? sortBy : "",
    minPrice,
    maxPrice,
    language: (params.get("language") ?? "").slice(0, 40),
    // The formats the server knows (GET /api/shop); any other would be refused with a 422.
    format: formats.includes(format) ? format : "",
    medium: MEDIA.some(([value]) => value === medium) ? medium : "",
    subject: (params.get("subject") ?? "").slice(0, 60),
    page: Number.isInteger(page) && page >= 1 && page <= 100000 ? page : 1,
  };
}

/**
 * {filters, hasFilters, update(changes), clear(), hrefForPage(page), hrefForSearch(text)}. Any change but the page
 * returns to page 1; filter changes keep the scroll position, page changes go back to the top.
 */
export function useBookFilters() {
  const [params, setParams] = useSearchParams();
  const formats = useShop()?.formats;
  const filters = useMemo(() => readFilters(params, formats ?? []), [params, formats]);
  const hasFilters = FILTER_KEYS.some((key) => key !== "sortBy" && filters[key] !== "");

  const update = useCallback((changes) => {
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const [key, value] of Object.entries(changes)) {
        if (value === "" || value === null || value === undefined) next.delete(key);
        else next.set(key, String(value));
      }
      if (!("page" in changes)) next.delete("page");
      if (next.get("page") === "1") next.delete("page");
      return next;
    }, "page" in changes ? undefined : { state: KEEP_SCROLL });
  }, [setParams]);

  const clear = useCallback(() => {
    setParams((previous) => {
      const next = new URLSearchParams();
      // The sort is a preference, not a filter: it survives Clear Filters.
      if (previous.get("sortBy")) next.set("sortBy", previous.get("sortBy"));
      return next;
    }, { state: KEEP_SCROLL });
  }, [setParams]);

  const hrefForPage = useCallback((page) => {
    const next = new URLSearchParams(params);
    if (page <= 1) next.delete("page");
    else next.set("page", String(page));
    const text = next.toString();
    return text ? `?${text}` : "?";
  }, [params]);

  const hrefForSearch = useCallback((search) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    next.set("search", search);
    return `?${next.toString()}`;
  }, [params]);

  return { filters, hasFilters, update, clear, hrefForPage, hrefForSearch };
}

/** The API's query for these filters (a category page passes its category, an exam page its exam). */
export function apiQuery(filters, category, exam) {
  return {
    exam,
    page: filters.page,
    limit: PAGE_SIZE,
    search: filters.search.trim(),
    category: category ?? filters.category,
    sortBy: filters.sortBy,
    minPrice: filters.minPrice,
    maxPrice: filters.maxPrice,
    language: filters.language,
    format: filters.format,
    medium: filters.medium,
    subject: exam ? filters.subject : "",
  };
}
