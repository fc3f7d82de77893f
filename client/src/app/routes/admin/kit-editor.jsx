// /admin/kits/new and /admin/kits/edit/:id: a kit's name, price, exam and books (found by search); back to the
// list once saved. Archiving is the Archived box: the kit leaves the shop, its orders keep it.
import { useCallback, useState } from "react";
import { Link, useNavigate, useParams } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { createKit, getExamChoices, getKit, listBooks, updateKit } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { useAdminForm } from "../../../features/admin/use-admin-form.js";
import { booksTotal, EMPTY_KIT, KIT_LABELS, kitBody, kitProblems, notForKits, valuesFromKit } from "../../../features/admin/kit-rules.js";
import { CheckField, EditorActions, ErrorSummary, FormField } from "../../../features/admin/components/form-field.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

const PREFIX = "kit";
const fieldId = (name) => `${PREFIX}-${name}`;

async function loadEditor({ id, signal }) {
  const [exams, kit] = await Promise.all([getExamChoices({ signal }).catch(() => []), id ? getKit(id, { signal }) : null]);
  return { exams, kit };
}

export function KitEditor() {
  const { id } = useParams();
  const { status, data, error, retry } = useRequest(useCallback(({ signal }) => loadEditor({ id, signal }), [id]));
  const heading = id ? "Edit kit" : "New kit";
  return (
    <>
      <title>{`${heading} — Bookstore Admin`}</title>
      <nav aria-label="Breadcrumb" className="adm-breadcrumb">
        <Link to={adminPaths.kits()}>Kits</Link> <span aria-hidden="true">›</span> <span>{heading}</span>
      </nav>
      <header className="adm-page-head"><h1>{heading}</h1></header>
      {status === "loading" && !data && <AdminLoading label="Loading…" />}
      {status === "error" && <AdminLoadError title="Failed to fetch the kit" error={error} retry={retry} />}
      {data && (
        <section className="adm-panel">
          <KitForm key={id ?? "new"} kit={data.kit} exams={data.exams} />
        </section>
      )}
    </>
  );
}

/** Find books by title, author or ISBN and add them to the kit. */
function BookPicker({ onAdd, disabled, chosen }) {
  const [text, setText] = useState("");
  const [found, setFound] = useState(null);
  const find = async () => {
    if (!text.trim()) return;
    try {
      const reply = await listBooks({ search: text.trim() });
      setFound(reply.books.slice(0, 6));
    } catch {
      setFound([]);
    }
  };
  return (
    <div className="adm-field adm-field--wide">
      <label htmlFor="kit-book-search">Add a book</label>
      <div className="adm-filters__actions">
        <input id="kit-book-search" type="search" value={text} placeholder="Title, author or ISBN" disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              find();
            }
          }} />
        <button type="button" className="adm-button adm-button--secondary" onClick={find} disabled={disabled}>Find</button>
      </div>
      {found && found.length === 0 && <p className="adm-hint" role="status">No books found.</p>}
      {found && found.length > 0 && (
        <ul className="adm-kit-found" aria-label="Books found">
          {found.map((book) => {
            const refusal = notForKits(book);
            return (
              <li key={book._id}>
                <span>{book.title} <span className="adm-small">· {formatRupees(book.discountedPrice ?? book.price)} · {refusal ?? `${book.stock} in stock`}</span></span>
                <button type="button" className="adm-button adm-button--small" disabled={disabled || chosen.has(book._id) || Boolean(refusal)}
                  onClick={() => onAdd(book)} aria-label={`Add ${book.title} to the kit`}>Add</button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function KitForm({ kit, exams }) {
  const navigate = useNavigate();
  const { values, setValues, problems, setProblems, failure, setFailure, saving, setSaving, summaryRef, summaryId, bind,
    field } = useAdminForm({ initial: kit ? valuesFromKit(kit) : EMPTY_KIT, prefix: PREFIX, labels: KIT_LABELS });
  const setBooks = (change) => setValues((current) => ({ ...current, books: change(current.books) }));
  const addBook = (book) => setBooks((books) => [...books,
    { _id: book._id, title: book.title, salePrice: book.discountedPrice ?? book.price, quantity: 1 }]);

  const submit = async (event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const reply = kit ? await updateKit(kit._id, kitBody(values)) : await createKit(kitBody(values));
      navigate(adminPaths.kits(), { state: { notice: { kind: "success", text: `${reply.message} ${reply.kit.name}` } } });
    } catch (failed) {
      const fromServer = kitProblems(failed.errors);
      if (failed.status === 409) fromServer.slug = failed.message;
      setProblems(fromServer);
      setFailure(failed.message || "The kit was not saved.");
      setSaving(false);
    }
  };

  const total = booksTotal(values.books);
  const price = Number(values.price);
  return (
    <form className="adm-form" onSubmit={submit} noValidate aria-busy={saving}>
      {failure && <ErrorSummary message={failure} problems={problems} labels={KIT_LABELS} fieldId={fieldId}
        summaryRef={summaryRef} id={summaryId} />}
      <fieldset className="adm-fieldset">
        <legend>Kit</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("name")} required>
            {(props) => <input type="text" maxLength={200} {...bind(props)} />}
          </FormField>
          <FormField {...field("slug")} hint="Its address, /kit/slug; empty: made from the name.">
            {(props) => <input type="text" maxLength={200} spellCheck={false} {...bind(props)} />}
          </FormField>
          <FormField {...field("price")} required hint="More than ₹0.">
            {(props) => <input type="number" min="1" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("exam")} hint="Its exam's page shows the kit.">
            {(props) => (
              <select {...bind(props)}>
                <option value="">No exam</option>
                {exams.map((exam) => <option key={exam._id} value={exam._id}>{exam.name}</option>)}
              </select>
            )}
          </FormField>
          <FormField {...field("description")} wide>
            {(props) => <textarea rows={3} maxLength={5000} {...bind(props)} />}
          </FormField>
          <CheckField {...field("archived")} checked={values.archived} disabled={saving}
            hint="Archived kits leave the shop; orders keep them."
            onChange={(checked) => setValues((current) => ({ ...current, archived: checked }))} />
        </div>
      </fieldset>

      <fieldset className="adm-fieldset" id={fieldId("books")} tabIndex={-1}>
        <legend>Books</legend>
        {problems.books && <p className="adm-field__error">{problems.books}</p>}
        {values.books.length === 0 ? <p className="adm-hint">No books yet: find them below.</p> : (
          <ul className="adm-kit-books" aria-label="Books in the kit">
            {values.books.map((book, index) => (
              <li key={book._id}>
                <span>{book.title} <span className="adm-small">· {formatRupees(book.salePrice)}</span></span>
                <label className="adm-small" htmlFor={`kit-quantity-${book._id}`}>Copies</label>
                <input id={`kit-quantity-${book._id}`} type="number" min="1" max="10" step="1" value={book.quantity}
                  disabled={saving} className="adm-kit-books__quantity"
                  onChange={(event) => setBooks((books) => books.map((b, i) => (i === index ? { ...b, quantity: event.target.value } : b)))} />
                <button type="button" className="adm-button adm-button--small adm-button--secondary" disabled={saving}
                  onClick={() => setBooks((books) => books.filter((_, i) => i !== index))}
                  aria-label={`Remove ${book.title} from the kit`}>Remove</button>
              </li>
            ))}
          </ul>
        )}
        <p className="adm-hint" data-kit-total>
          Books one by one: {formatRupees(total)}
          {price > 0 && total > price ? ` · shoppers save ${formatRupees(total - price)}` : ""}
        </p>
        <BookPicker onAdd={addBook} disabled={saving} chosen={new Set(values.books.map((book) => book._id))} />
      </fieldset>

      <EditorActions cancelTo={adminPaths.kits()} saving={saving} label={kit ? "Save kit" : "Create kit"} />
    </form>
  );
}
