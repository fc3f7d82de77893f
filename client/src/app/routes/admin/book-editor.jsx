// /admin/books/new and /admin/books/edit/:id: the book form, then back to the list with its message (product §10.2).
import { useCallback, useState } from "react";
import { Link, useNavigate, useParams } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { createBook, getBook, getCategories, updateBook } from "../../../features/admin/api.js";
import { EMPTY_BOOK, valuesFromBook } from "../../../features/admin/book-form-rules.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { BookForm } from "../../../features/admin/components/book-form.jsx";
import { BookFileField } from "../../../features/admin/components/book-file-field.jsx";
import { StockLedger } from "../../../features/admin/components/stock-ledger.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";
import { getExams } from "../../../features/exams/api.js";
import { groupExams } from "../../../features/exams/grouping.js";

// The form's exam picker lists the exams feature's exams, by group.
const EXAMS = { load: getExams, group: groupExams };

async function loadEditor({ id, signal }) {
  const [categories, found] = await Promise.all([getCategories({ signal }), id ? getBook(id, { signal }) : null]);
  return { categories, book: found?.book ?? null, version: found?.version ?? null };
}

/** A 409 from a stale form: say what the book holds now, so the admin saves on top of it. */
function staleMessage(error) {
  const book = error.data?.book;
  const price = book ? `₹${book.discountedPrice ?? book.price}` : "";
  return `${error.message} Now: ${book?.stock ?? "?"} in stock at ${price}.`;
}

export function BookEditor() {
  const { id } = useParams();
  const navigate = useNavigate();
  const editing = Boolean(id);
  const heading = editing ? "Edit Book" : "Add New Book";
  const { status, data, error, retry } = useRequest(useCallback(({ signal }) => loadEditor({ id, signal }), [id]));
  const [restoring, setRestoring] = useState(false);
  // The version the next save applies to: the one read, or the current one a refused save brought back.
  const [version, setVersion] = useState(null);
  const currentVersion = version ?? data?.version ?? null;
  const [restoreError, setRestoreError] = useState(null);

  // An archived book stays editable; this puts it back in the shop.
  const restore = async () => {
    setRestoring(true);
    setRestoreError(null);
    try {
      const reply = await updateBook(id, { archived: false }, { version: currentVersion });
      navigate(adminPaths.books(), { state: { notice: { kind: "success", text: `${reply.book?.title ?? "The book"} is on sale again.` } } });
    } catch (failure) {
      setRestoreError(`Failed to save book. ${failure.message ?? ""}`.trim());
      setRestoring(false);
    }
  };

  const save = async (body) => {
    let reply;
    try {
      reply = editing ? await updateBook(id, body, { version: currentVersion }) : await createBook(body);
    } catch (error) {
      if (error.status === 409 && error.data?.version) {
        setVersion(error.data.version);
        error.message = staleMessage(error);
      }
      throw error;
    }
    const text = reply.message || (editing ? "Book updated successfully!" : "Book created successfully!");
    navigate(adminPaths.books(), { state: { notice: { kind: "success", text } } });
  };

  return (
    <>
      <title>{`${heading} — Bookstore Admin`}</title>
      <nav aria-label="Breadcrumb" className="adm-breadcrumb">
        <Link to={adminPaths.books()}>Manage Books</Link> <span aria-hidden="true">›</span> <span>{heading}</span>
      </nav>
      <header className="adm-page-head">
        <h1>{heading}</h1>
        {data?.book && <p className="adm-page-head__lead">{data.book.title}</p>}
      </header>
      {data?.book?.archived && (
        <div className="adm-alert adm-alert--note" role="note">
          <div className="adm-alert__text">
            <span className="adm-badge adm-badge--archived">Archived</span> Shoppers do not see this book; past orders keep it.
            {restoreError && <p role="alert">{restoreError}</p>}
          </div>
          <button type="button" className="adm-button adm-button--small" onClick={restore} disabled={restoring}>
            {restoring ? "Saving…" : "Put back on sale"}
          </button>
        </div>
      )}
      {status === "loading" && !data && <AdminLoading label={editing ? "Loading the book…" : "Loading…"} />}
      {status === "error" && (
        <AdminLoadError title={editing ? "Failed to fetch book" : "Failed to load categories"} error={error} retry={retry} />
      )}
      {data && (
        <section className="adm-panel">
          <BookForm key={id ?? "new"} editing={editing} categories={data.categories} exams={EXAMS}
            initial={data.book ? valuesFromBook(data.book) : EMPTY_BOOK}
            currentCover={data.book?.imageUrl ?? null} onSubmit={save}
            failureTitle={editing ? "Failed to save book" : "Failed to add book"} />
        </section>
      )}
      {/* An e-book or audiobook needs its file to be sold (product §7.11); a new book gets one once saved. */}
      {data?.book?.digital && <BookFileField book={data.book} />}
      {/* Every change of a printed book's stock, and the admin's adjustments with a reason (product §5.9). */}
      {data?.book && !data.book.digital && <StockLedger book={data.book} />}
    </>
  );
}
