// Best sellers and new releases: a shelf of books from the API, filtered by a category in the URL.
import { useCallback, useId } from "react";
import { useSearchParams } from "../../../lib/router.jsx";
import { KEEP_SCROLL } from "../../../components/layout/scroll-manager.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { getCategories } from "../api.js";
import { BookGrid } from "./book-grid.jsx";

/** fetchShelf({category, signal}) loads the books; renderCard(book, index) draws each one. */
export function ShelfPage({ title, lead, fetchShelf, renderCard, failure }) {
  const [params, setParams] = useSearchParams();
  const category = (params.get("category") ?? "").slice(0, 60);
  const selectId = useId();
  const categories = useRequest(getCategories);
  const request = useCallback(({ signal }) => fetchShelf({ category, signal }), [fetchShelf, category]);
  const { status, data: books, error, retry } = useRequest(request);

  return (
    <section className="container page" aria-labelledby={`${selectId}-title`}>
      <h1 id={`${selectId}-title`}>{title}</h1>
      <p className="page__lead">{lead}</p>
      <div className="filters filters--single">
        <div className="filter">
          <label htmlFor={selectId}>Category</label>
          <select id={selectId} value={category.toLowerCase()}
                  onChange={(event) => setParams(event.target.value ? { category: event.target.value } : {},
                    { state: KEEP_SCROLL })}>
            <option value="">All categories</option>
            {(categories.data ?? []).map((item) => (
              <option key={item._id} value={item.name.toLowerCase()}>{item.name}</option>
            ))}
            {!categories.data && category && <option value={category.toLowerCase()}>{category}</option>}
          </select>
        </div>
      </div>
      <div aria-busy={status === "loading"}>
        {status === "loading" && <Loading label={`Loading ${title.toLowerCase()}…`} />}
        {status === "error" && <ErrorNotice title={failure} error={error} retry={retry} retryLabel="Try Again" />}
        {status === "success" && books.length === 0 && <p className="empty">No books in this category yet.</p>}
        {status === "success" && books.length > 0 && <BookGrid books={books} renderCard={renderCard} label={title} headingLevel={2} />}
      </div>
    </section>
  );
}
