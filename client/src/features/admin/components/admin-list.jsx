// The parts every admin list is made of: the search-and-filter bar, the panel with its pager, and the
// table with its empty state (cards on a phone). Screens describe their columns; the markup and its accessibility live here.
import { formatCount } from "../format.js";
import { Pager } from "./pager.jsx";
import { AdminLoading, AdminLoadError } from "./request-state.jsx";

/**
 * The search box (its text is `list.draft` until submitted) and any filter controls given as children,
 * with Search and, once something is filtered, Clear. `list` is useListParams()'s answer.
 */
export function ListFilters({ list, label, searchLabel = "Search", placeholder, idPrefix, children, maxLength = 100 }) {
  return (
    <form className="adm-filters" role="search" aria-label={label} onSubmit={(event) => {
      event.preventDefault();
      list.submitSearch();
    }}>
      <div className="adm-field adm-field--grow">
        <label htmlFor={`${idPrefix}-search`}>{searchLabel}</label>
        <input id={`${idPrefix}-search`} type="search" value={list.draft} placeholder={placeholder} maxLength={maxLength}
          onChange={(event) => list.setDraft(event.target.value)} />
      </div>
      {children}
      <div className="adm-filters__actions">
        <button type="submit" className="adm-button">Search</button>
        {list.filtered && (
          <button type="button" className="adm-button adm-button--secondary" onClick={list.clear}>Clear</button>
        )}
      </div>
    </form>
  );
}

/**
 * A list's panel: `children` (the table) with the pager under it, busy while a page loads. The panel is
 * named by `label`, or by the element `labelledBy` names (in `head`, drawn above the table). The pager shows
 * `pages` ({page, totalPages}, a reply's pagination) and turns `list`'s page (useListParams()'s answer).
 */
export function AdminPanel({ label, labelledBy, head, busy, list, pages, pagerLabel, children }) {
  return (
    <section className="adm-panel adm-panel--flush" aria-label={labelledBy ? undefined : label} aria-labelledby={labelledBy}
      aria-busy={busy || undefined}>
      {head}
      {children}
      <Pager page={pages?.page ?? list.page} totalPages={pages?.totalPages} label={pagerLabel}
        onPage={(next) => list.update({ page: next })} />
    </section>
  );
}

/**
 * The table (columns: {key, header, hiddenHeader, label, className, headerClassName, cell(row)}; `label` false
 * for a cell that heads its phone card, "" for one without a label; `hiddenHeader` for a header only screen
 * readers need) or, without rows, the empty state ({title, text}). `rowProps(row)` adds attributes to a row
 * (a class, data-* ids for tests and links).
 */
export function DataTable({ columns, rows, rowKey = (row) => row._id, rowProps, empty, compact }) {
  if (rows.length === 0) {
    return (
      <div className="adm-empty">
        <p className="adm-empty__title">{empty.title}</p>
        <p>{empty.text}</p>
      </div>
    );
  }
  return (
    <div className="adm-table-wrap">
      <table className={`adm-table adm-table--cards${compact ? " adm-table--compact" : ""}`}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.headerClassName}>
                {column.hiddenHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <td key={column.key} className={column.className}
                  data-label={column.label === false || column.label === "" ? undefined : (column.label ?? column.header)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An AdminPanel holding a DataTable: a list screen's table with its empty state and pager. */
export function AdminTable({ label, labelledBy, head, busy, list, pages, pagerLabel, ...table }) {
  return (
    <AdminPanel label={label} labelledBy={labelledBy} head={head} busy={busy} list={list} pages={pages} pagerLabel={pagerLabel}>
      <DataTable {...table} />
    </AdminPanel>
  );
}

/**
 * A list's filter as a select bound to the URL: `list.filters[name]`, written back with page 1. `options` are
 * [value, text] pairs after the first, empty choice (`allLabel`); `inline` sets the label beside the select.
 */
export function FilterSelect({ list, name, id, label, allLabel = "All", options, inline }) {
  return (
    <div className={inline ? "adm-field adm-field--inline" : "adm-field"}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={list.filters[name]} onChange={(event) => list.update({ [name]: event.target.value, page: 1 })}>
        <option value="">{allLabel}</option>
        {options.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
      </select>
    </div>
  );
}

/**
 * A list's request as the screen shows it: the error with Retry, the first load, then `children(data)` (kept
 * on screen, marked busy by the table, while a later page loads). `request` is useRequest()'s answer.
 */
export function ListRequest({ request, errorTitle, loadingLabel, children }) {
  return (
    <>
      {request.status === "error" && <AdminLoadError title={errorTitle} error={request.error} retry={request.retry} />}
      {request.status === "loading" && !request.data && <AdminLoading label={loadingLabel} />}
      {request.data && children(request.data)}
    </>
  );
}

/**
 * A list screen's heading: its title; once the list is loaded (`count` not null), "12 messages", then the filter's
 * words (`filtered`, e.g. " new") and the search (` matching “gate”`); the screen's controls as children.
 */
export function ListHead({ title, count, one, many = `${one}s`, filtered, search, children }) {
  return (
    <header className="adm-page-head adm-page-head--row">
      <div>
        <h1>{title}</h1>
        {count != null && (
          <p className="adm-page-head__lead">
            {formatCount(count)} {count === 1 ? one : many}{filtered && ` ${filtered}`}{search && ` matching “${search}”`}
          </p>
        )}
      </div>
      {children}
    </header>
  );
}
