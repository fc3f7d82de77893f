// /admin/books: find books, see stock at a glance, and edit, add or delete them; show archived ones and restore them.
import { useCallback, useState } from "react";
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { deleteBook, getCategories, getDashboardStats, listBooks, restoreBook } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { ConfirmDialog } from "../../../features/admin/components/confirm-dialog.jsx";
import { AdminTable, FilterSelect, ListFilters, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";
import { useHandedNotice } from "../../../features/admin/use-handed-notice.js";

export function ManageBooks() {
  const listParams = useListParams({ category: null, archived: ["show"] });
  const { page, search, filters: { category, archived }, update } = listParams;
  const [notice, setNotice] = useHandedNotice();
  const [doomed, setDoomed] = useState(null);
  const [deleting, setDeleting] = useState(false);
  const [restoring, setRestoring] = useState(null); // the archived book the admin asked to put back on sale
  const [restoreBusy, setRestoreBusy] = useState(false);

  const books = useRequest(useCallback(({ signal }) => listBooks({ page, search, category, archived: Boolean(archived), signal }),
    [page, search, category, archived]));
  const counts = useRequest(useCallback(({ signal }) => getDashboardStats({ signal }), []));
  const categories = useRequest(useCallback(({ signal }) => getCategories({ signal }), []));

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

  const confirmRestore = async () => {
    setRestoreBusy(true);
    try {
      await restoreBook(restoring._id);
      setNotice({ kind: "success", text: `“${restoring.title}” is on sale again.` });
      books.retry();
      counts.retry();
    } catch (error) {
      setNotice({ kind: "error", text: `Failed to restore book. ${error.message ?? ""}`.trim() });
    } finally {
      setRestoreBusy(false);
      setRestoring(null);
    }
  };

  const columns = [
    { key: "cover", header: "Cover", hiddenHeader: true, label: "", className: "adm-cover-cell", cell: (book) => (
      book.thumbnailUrl || book.imageUrl
        ? <img src={book.thumbnailUrl || book.imageUrl} alt="" width="40" height="60" loading="lazy" className="adm-thumb" />
        : <span className="adm-thumb adm-thumb--none" aria-hidden="true" />
    ) },
    { key: "title", header: "Title", label: false, className: "adm-card-head", cell: (book) => (
      <>
        <span className="adm-book-title">{book.title}</span>
        {book.isbn && <span className="adm-muted adm-small">ISBN {book.isbn}</span>}
        {book.archived && <span className="adm-badge adm-badge--archived">Archived</span>}
      </>
    ) },
    { key: "author", header: "Author", cell: (book) => book.author },
    { key: "category", header: "Category", cell: (book) => book.category },
    { key: "price", header: "Price", className: "adm-num", headerClassName: "adm-num", cell: (book) => formatRupees(book.price) },
    { key: "stock", header: "Stock", className: "adm-num", headerClassName: "adm-num", cell: (book) => (
      <span className={book.stock === 0 ? "adm-stock adm-stock--out" : book.stock <= 5 ? "adm-stock adm-stock--low" : undefined}>
        {book.stock}
      </span>
    ) },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions", cell: (book) => (
      <>
        <Link to={adminPaths.editBook(book._id)} className="adm-button adm-button--small adm-button--secondary"
          aria-label={`Edit ${book.title}`}>Edit</Link>
        {book.archived ? (
          <button type="button" className="adm-button adm-button--small adm-button--secondary"
            aria-label={`Restore ${book.title}`} onClick={() => setRestoring(book)}>Restore</button>
        ) : (
          <button type="button" className="adm-button adm-button--small adm-button--danger-outline"
            aria-label={`Delete ${book.title}`} onClick={() => setDoomed(book)}>Delete</button>
        )}
      </>
    ) },
  ];

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

      <ListFilters list={listParams} label="Books" idPrefix="book" placeholder="Title, author or ISBN" maxLength={200}>
        <FilterSelect list={listParams} name="category" id="book-category" label="Category" allLabel="All categories"
          options={(categories.data ?? []).map((item) => [item.slug, item.name])} />
        <div className="adm-field">
          <span className="adm-check__row">
            <input id="book-archived" type="checkbox" checked={Boolean(archived)}
              onChange={(event) => update({ archived: event.target.checked ? "show" : "", page: 1 })} />
            <label htmlFor="book-archived">Show archived</label>
          </span>
        </div>
      </ListFilters>

      <ListRequest request={books} errorTitle="Failed to fetch books" loadingLabel="Loading books…">
        {(list) => (
          <AdminTable labelledBy="inventory-title" columns={columns} rows={list.books} busy={books.status === "loading"}
            rowProps={(book) => ({ className: book.archived ? "adm-row--muted" : undefined })}
            head={(
              <div className="adm-panel__head adm-panel__head--padded">
                <h2 id="inventory-title">Inventory</h2>
                <p className="adm-muted" aria-live="polite">
                  {list.totalBooks === 0 ? "No books match." : `${formatCount(list.totalBooks)}${list.pagination?.totalIsApproximate ? "+" : ""} book${list.totalBooks === 1 ? "" : "s"}${search ? ` matching “${search}”` : ""}${archived ? ", archived included" : ""}`}
                </p>
              </div>
            )}
            empty={{ title: "No books found",
              text: archived ? "Try another search or category, or add a new book." : "Try another search or category, show archived books, or add a new book." }}
            list={listParams} pages={{ page: list.pagination?.page, totalPages: list.totalPages }} pagerLabel="Book pages" />
        )}
      </ListRequest>

      {doomed && (
        <ConfirmDialog title="Delete book" confirmLabel="Delete" danger busy={deleting}
          onConfirm={confirmDelete} onCancel={() => setDoomed(null)}>
          <p>Are you sure you want to delete this book?</p>
          <p className="adm-muted">“{doomed.title}” by {doomed.author}. A book that appears in past orders is archived
            instead: shoppers no longer see it, and order history keeps it.</p>
        </ConfirmDialog>
      )}

      {restoring && (
        <ConfirmDialog title="Restore book" confirmLabel="Restore" busy={restoreBusy}
          onConfirm={confirmRestore} onCancel={() => setRestoring(null)}>
          <p>Put this book back on sale?</p>
          <p className="adm-muted">“{restoring.title}” by {restoring.author}. Shoppers will see it again in the shop,
            with its current price and stock.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
