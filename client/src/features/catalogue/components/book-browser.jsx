// The catalogue browser of /books and /category/{name}: search, filters, results, pages.
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { useModalDialog } from "../../../components/ui/modal.jsx";
import { focusHeading, screenHeading } from "../../../components/layout/focus-heading.js";
import { booksPath, listBooks, getCategories } from "../api.js";
import { useInitialData } from "../initial-data.js";
import { apiQuery, SORTS, useBookFilters } from "../use-book-filters.js";
import { BOOKS_TIMEOUT_MS, booksErrorMessage } from "../books-error.js";
import { useBookDetail } from "../book-detail-context.jsx";
import { resultsLine } from "../results-line.js";
import { BookGrid } from "./book-grid.jsx";
import { BookFilters } from "./book-filters.jsx";
import { Pagination } from "./pagination.jsx";
import { SearchSuggest } from "./search-suggest.jsx";

/** The book list with a 10-second limit (product §2.6); a timeout is told apart from other failures. */
async function fetchBooks(query, signal) {
  const timeout = AbortSignal.timeout(BOOKS_TIMEOUT_MS);
  try {
    return await listBooks(query, { signal: AbortSignal.any([signal, timeout]) });
  } catch (error) {
    if (signal.aborted) throw error;
    error.timedOut = timeout.aborted;
    throw error;
  }
}

// Phones (the stylesheet's 40rem): results first, the filters in a sheet behind a button.
const PHONE = "(max-width: 40rem)";
// What counts on the Filters button: the search has its own box and the sort stays beside the button.
const COUNTED = ["category", "subject", "minPrice", "maxPrice", "language", "medium", "format"];

function subscribePhone(onChange) {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True while the screen is phone-sized. */
function usePhone() {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE).matches);
}

/** The phone's sort, kept beside the Filters button. */
function SortSelect({ filters, update }) {
  const id = useId();
  return (
    <div className="filter browser__sort">
      <label htmlFor={id}>Sort by</label>
      <select id={id} value={filters.sortBy} onChange={(event) => update({ sortBy: event.target.value })}>
        <option value="">{filters.search ? "Best match" : "Newest first"}</option>
        {SORTS.filter(([value]) => filters.search || value !== "newest").map(([value, text]) => (
          <option key={value} value={value}>{text}</option>
        ))}
      </select>
    </div>
  );
}

/** The phone's filter sheet: a modal dialog from the bottom, applying each change at once. */
function FilterSheet({ open, onClose, pagination, children }) {
  const dialogProps = useModalDialog(open, onClose);
  const titleId = useId();
  return (
    <dialog {...dialogProps} className="modal filter-sheet" aria-labelledby={titleId}>
      <div className="modal__panel">
        <h2 id={titleId} className="filter-sheet__title">Filters</h2>
        <button type="button" className="modal__close" onClick={onClose} aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
        {children}
        <div className="filter-sheet__done">
          <button type="button" className="button" onClick={onClose}>
            {pagination
              ? `Show ${pagination.total.toLocaleString("en-IN")}${pagination.totalIsApproximate ? "+" : ""} ${pagination.total === 1 ? "book" : "books"}`
              : "Show results"}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** Another page of results (Previous, Next, a number): focus goes to the screen's heading once it shows. */
function useFocusOnNewPage(page, status) {
  const shown = useRef(page);
  useEffect(() => {
    if (status !== "success" || shown.current === page) return undefined;
    shown.current = page;
    return focusHeading(screenHeading);
  }, [page, status]);
}

/**
 * category: the fixed category of a category page ({name, ...}); exam: an exam page's exam ({slug,
 * subjects}); both omitted on /books.
 */
export function BookBrowser({ category, exam }) {
  const { filters, hasFilters, update, clear, hrefForPage, hrefForSearch } = useBookFilters();
  const detail = useBookDetail();
  const query = useMemo(() => apiQuery(filters, category?.name.toLowerCase(), exam?.slug), [filters, category, exam]);
  const key = JSON.stringify(query);
  // The JSON key stands for the query: a new request only when a value really changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- key is the query's value
  const request = useCallback(({ signal }) => fetchBooks(query, signal), [key]);
  // A bare /books arrives with its first page in the HTML; anything else is fetched.
  const initial = useInitialData("initial-books",
    (embedded) => (embedded.path === booksPath(query) ? embedded.reply : undefined));
  const { status, data, error, retry } = useRequest(request, initial);
  const categories = useRequest(getCategories);
  const categoryName = category?.name
    ?? categories.data?.find((item) => item.name.toLowerCase() === filters.category.toLowerCase())?.name
    ?? filters.category;
  const onSearch = useCallback((search) => update({ search }), [update]);
  useFocusOnNewPage(filters.page, status);
  const phone = usePhone();
  const [sheetOpen, setSheetOpen] = useState(false);
  const closeSheet = useCallback(() => setSheetOpen(false), []);
  const counted = COUNTED.filter((key) => filters[key] !== "" && !(key === "category" && (category || exam))).length;
  const filterControls = (
    <BookFilters filters={filters} update={update} clear={clear} hasFilters={hasFilters}
                 categories={categories.data} hideCategory={Boolean(category || exam)}
                 subjects={exam ? exam.subjects : null} hideSort={phone} />
  );

  return (
    <div className="browser">
      <SearchSuggest initial={filters.search} onSearch={onSearch} onPick={(book) => detail?.openBook(book)} />
      {phone ? (
        <>
          <div className="browser__bar">
            <button type="button" className="button button--secondary browser__filters-button" aria-haspopup="dialog"
              onClick={() => setSheetOpen(true)}>
              Filters
              {counted > 0 && " "}
              {counted > 0 && (
                <span className="browser__filter-count">{counted}<span className="sr-only"> active</span></span>
              )}
            </button>
            <SortSelect filters={filters} update={update} />
          </div>
          <FilterSheet open={sheetOpen} onClose={closeSheet}
            pagination={status === "success" ? data.pagination : null}>
            {filterControls}
          </FilterSheet>
        </>
      ) : filterControls}
      <div className="browser__results" aria-busy={status === "loading"}>
        {status === "loading" && <Loading label="Loading books…" />}
        {status === "error" && (
          <ErrorNotice title="Books could not be loaded." message={booksErrorMessage(error, error?.timedOut)} retry={retry} />
        )}
        {status === "success" && (
          <>
            <p className="browser__count" role="status">
              {resultsLine(data.books.length, data.pagination, data.didYouMean ?? filters.search,
                category ? null : categoryName)}
            </p>
            {data.didYouMean && (
              <p className="browser__did-you-mean">
                Nothing matched “{filters.search}”. Did you mean{" "}
                <Link to={hrefForSearch(data.didYouMean)}>{data.didYouMean}</Link>?
              </p>
            )}
            {data.books.length === 0 ? (
              <div className="empty">
                <h2 className="empty__title">No books found</h2>
                <p>{data.totalBooks > 0 ? "This page is past the last one." : "Try other words or fewer filters."}</p>
                <button type="button" className="button" onClick={clear}>Clear Filters</button>
              </div>
            ) : (
              <BookGrid books={data.books} label="Books" headingLevel={2} priority={2} />
            )}
            <Pagination page={filters.page} totalPages={data.totalPages} hrefForPage={hrefForPage} />
          </>
        )}
      </div>
    </div>
  );
}
