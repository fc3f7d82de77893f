// /admin/books: find books, see stock at a glance, and edit, add or delete them.
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { deleteBook, getCategories, getDashboardStats, listBooks } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { ConfirmDialog } from "../../../features/admin/components/confirm-dialog.jsx";
import { Pager } from "../../../features/admin/components/pager.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

export function ManageBooks() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const search = params.get("search") ?? "";
  const category = params.get("category") ?? "";
  const page = Math.max(Number.parseInt(params.get("page") ?? "1", 10) || 1, 1);
  const [draft, setDraft] = useState(search);
  const [notice, setNotice] = useState(location.state?.notice ?? null);
  const [doomed, setDoomed] = useState(null);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => setDraft(search), [search]);
  // A success message handed over by the book form is shown once, not again on reload.
  useEffect(() => {
    if (location.state?.notice) navigate(location.pathname + location.search, { replace: true, state: null });
  }, [location, navigate]);

  const books = useRequest(useCallback(({ signal }) => listBooks({ page, search, category, signal }), [page, search, category]));
  const counts = useRequest(useCallback(({ signal }) => getDashboardStats({ signal }), []));
  const categories = useRequest(useCallback(({ signal }) => getCategories({ signal }), []));

  const update = (changes) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === "" || value == null || (key === "page" && value === 1)) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next);
  };

  const confirmDelete = async () => {
    setDeleting(true);
    try {
      const reply = await deleteBook(doomed._id);
      setNotice({ kind: "success", text: reply.message || "Book deleted." });
      books.retry();
      counts.retry();
    } catch (error) {
      setNotice({ kind: "error", text: `Failed to delete book. ${error.message ?? ""}`.trim() });
    } finally {
      setDeleting(false);
      setDoomed(null);
    }
  };

  const list = books.data;
  return (
    <>
      <title>Manage Books — Bookstore Admin</title>
      <header className="adm-page-head adm-page-head--row">
        <div>
          <h1>Manage Books</h1>
          {counts.data && (
            <p className="adm-page-head__lead" data-testid="book-counts">
              <strong>{formatCount(counts.data.totalBooks)}</strong> books on sale ·{" "}
              <strong>{formatCount(counts.data.inStockBooks)}</strong> in stock
              {counts.data.archivedBooks > 0 && <> · {formatCount(counts.data.archivedBooks)} archived</>}
            </p>
          )}
        </div>
        <Link to={adminPaths.newBook()} className="adm-button">+ Add New Book</Link>
      </header>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}

      <form className="adm-filters" role="search" aria-label="Books" onSubmit={(event) => {
        event.preventDefault();
        update({ search: draft.trim(), page: 1 });
      }}>
        <div className="adm-field adm-field--grow">
          <label htmlFor="book-search">Search</label>
          <input id="book-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)}
            placeholder="Title, author or ISBN" maxLength={200} />
        </div>
        <div className="adm-field">
          <label htmlFor="book-category">Category</label>
          <select id="book-category" value={category} onChange={(event) => update({ category: event.target.value, page: 1 })}>
            <option value="">All categories</option>
            {(categories.data ?? []).map((item) => <option key={item._id} value={item.slug}>{item.name}</option>)}
          </select>
        </div>
        <div className="adm-filters__actions">
          <button type="submit" className="adm-button">Search</button>
          {(search || category) && (
            <button type="button" className="adm-button adm-button--secondary" onClick={() => {
              setDraft("");
              setParams(new URLSearchParams());
            }}>Clear</button>
          )}
        </div>
      </form>

      {books.status === "error" && <AdminLoadError title="Failed to fetch books" error={books.error} retry={books.retry} />}
      {books.status === "loading" && !list && <AdminLoading label="Loading books…" />}
      {list && (
        <section className="adm-panel adm-panel--flush" aria-labelledby="inventory-title" aria-busy={books.status === "loading"}>
          <div className="adm-panel__head adm-panel__head--padded">
            <h2 id="inventory-title">Inventory</h2>
            <p className="adm-muted" aria-live="polite">
              {list.totalBooks === 0 ? "No books match." : `${formatCount(list.totalBooks)}${list.pagination?.totalIsApproximate ? "+" : ""} book${list.totalBooks === 1 ? "" : "s"}${search ? ` matching “${search}”` : ""}`}
            </p>
          </div>
          {list.books.length === 0 ? (
            <div className="adm-empty">
              <p className="adm-empty__title">No books found</p>
              <p>Try another search or category, or add a new book.</p>
            </div>
          ) : (
            <div className="adm-table-wrap">
              <table className="adm-table adm-table--cards">
                <thead>
                  <tr>
                    <th scope="col"><span className="sr-only">Cover</span></th>
                    <th scope="col">Title</th>
                    <th scope="col">Author</th>
                    <th scope="col">Category</th>
                    <th scope="col" className="adm-num">Price</th>
                    <th scope="col" className="adm-num">Stock</th>
                    <th scope="col"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.books.map((book) => (
                    <tr key={book._id} className={book.archived ? "adm-row--muted" : undefined}>
                      <td className="adm-cover-cell">
                        {book.thumbnailUrl || book.imageUrl
                          ? <img src={book.thumbnailUrl || book.imageUrl} alt="" width="40" height="60" loading="lazy" className="adm-thumb" />
                          : <span className="adm-thumb adm-thumb--none" aria-hidden="true" />}
                      </td>
                      <td className="adm-card-head">
                        <span className="adm-book-title">{book.title}</span>
                        {book.isbn && <span className="adm-muted adm-small">ISBN {book.isbn}</span>}
                        {book.archived && <span className="adm-badge adm-badge--archived">Archived</span>}
                      </td>
                      <td data-label="Author">{book.author}</td>
                      <td data-label="Category">{book.category}</td>
                      <td data-label="Price" className="adm-num">{formatRupees(book.price)}</td>
                      <td data-label="Stock" className="adm-num">
                        <span className={book.stock === 0 ? "adm-stock adm-stock--out" : book.stock <= 5 ? "adm-stock adm-stock--low" : undefined}>
                          {book.stock}
                        </span>
                      </td>
                      <td className="adm-row-actions">
                        <Link to={adminPaths.editBook(book._id)} className="adm-button adm-button--small adm-button--secondary"
                          aria-label={`Edit ${book.title}`}>Edit</Link>
                        <button type="button" className="adm-button adm-button--small adm-button--danger-outline"
                          aria-label={`Delete ${book.title}`} onClick={() => setDoomed(book)}>Delete</button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={list.pagination?.page ?? page} totalPages={list.totalPages} label="Book pages"
            onPage={(next) => update({ page: next })} />
        </section>
      )}

      {doomed && (
        <ConfirmDialog title="Delete book" confirmLabel="Delete" danger busy={deleting}
          onConfirm={confirmDelete} onCancel={() => setDoomed(null)}>
          <p>Are you sure you want to delete this book?</p>
          <p className="adm-muted">“{doomed.title}” by {doomed.author}. A book that appears in past orders is archived
            instead: shoppers no longer see it, and order history keeps it.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
