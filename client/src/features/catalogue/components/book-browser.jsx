// The catalogue browser of /books and /category/{name}: search, filters, results, pages.
import { useCallback, useMemo } from "react";
import { Link } from "react-router-dom";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { booksPath, listBooks, getCategories } from "../api.js";
import { useInitialData } from "../initial-data.js";
import { apiQuery, useBookFilters } from "../use-book-filters.js";
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

  return (
    <div className="browser">
      <SearchSuggest initial={filters.search} onSearch={onSearch} onPick={(book) => detail?.openBook(book)} />
      <BookFilters filters={filters} update={update} clear={clear} hasFilters={hasFilters}
                   categories={categories.data} hideCategory={Boolean(category || exam)}
                   subjects={exam ? exam.subjects : null} />
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
