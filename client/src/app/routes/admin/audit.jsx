// /admin/audit: the audit log of administrators' writes, newest first: when, who, what, and each changed
// field before and after; filtered by kind of thing and by one thing's id.
import { useCallback } from "react";
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { listAuditEntries } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount, formatDateTime } from "../../../features/admin/format.js";
import { AdminTable, FilterSelect, ListFilters, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";

const ENTITY_TYPES = {
  book: "Books", order: "Orders", coupon: "Coupons", kit: "Kits", contact: "Contact messages",
  shop_settings: "Shipping & payments", search_synonyms: "Search synonyms",
};
const LONGEST_VALUE = 80;

/** A field's value as a short line of text: "—" for nothing, JSON for lists and objects, long text cut short. */
function valueText(value) {
  if (value === null || value === undefined || value === "") return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}

const isEmpty = (value) => value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * Each changed field with its value before and after; a creation or a deletion (one side only) lists the fields
 * that held something.
 */
function Changes({ entry }) {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const oneSided = entry.before == null || entry.after == null;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((field) => !oneSided || !isEmpty(before[field] ?? after[field]));
  if (fields.length === 0) return <span className="adm-muted">—</span>;
  return (
    <ul className="adm-changes">
      {fields.map((field) => (
        <li key={field} data-field={field}>
          <span className="adm-changes__field">{field}</span>{" "}
          {entry.before == null ? <>set to <span className="adm-changes__new">{valueText(after[field])}</span></>
            : entry.after == null ? <>was <span className="adm-changes__old">{valueText(before[field])}</span></>
              : (
                <>
                  <span className="adm-changes__old">{valueText(before[field])}</span>
                  {" "}<span aria-hidden="true">→</span><span className="sr-only">changed to</span>{" "}
                  <span className="adm-changes__new">{valueText(after[field])}</span>
                </>
              )}
        </li>
      ))}
    </ul>
  );
}

const columns = [
  { key: "when", header: "When", label: false, className: "adm-card-head adm-nowrap",
    cell: (entry) => <span className="adm-book-title">{formatDateTime(entry.createdAt)}</span> },
  { key: "who", header: "Who", className: "adm-break", cell: (entry) => entry.actor?.email ?? "—" },
  { key: "action", header: "Action", cell: (entry) => <code className="adm-coupon-code">{entry.action}</code> },
  { key: "entity", header: "Entity", className: "adm-break", cell: (entry) => (
    <Link to={adminPaths.audit({ type: entry.entityType, search: entry.entityId })} title="Every change to this">
      {entry.entityType} {entry.entityId}
    </Link>
  ) },
  { key: "changes", header: "Changes", cell: (entry) => <Changes entry={entry} /> },
];

export function AuditLog() {
  const list = useListParams({ type: Object.keys(ENTITY_TYPES) });
  const { page, search, filters: { type } } = list;
  const entries = useRequest(useCallback(({ signal }) => listAuditEntries({ page, entityType: type, entityId: search, signal }),
    [page, type, search]));

  const data = entries.data;
  const total = data?.pagination?.totalEntries ?? 0;
  return (
    <>
      <title>Audit log — Bookstore Admin</title>
      <header className="adm-page-head">
        <h1>Audit log</h1>
        {data && (
          <p className="adm-page-head__lead">
            {formatCount(total)} change{total === 1 ? "" : "s"}{type && ` to ${ENTITY_TYPES[type].toLowerCase()}`}
            {search && ` of “${search}”`}, newest first
          </p>
        )}
      </header>

      <ListFilters list={list} label="Audit log" idPrefix="audit" searchLabel="Entity id" placeholder="e.g. a book id or order number"
        maxLength={64}>
        <FilterSelect list={list} name="type" id="audit-type-filter" label="Entity" allLabel="Everything"
          options={Object.entries(ENTITY_TYPES)} />
      </ListFilters>

      <ListRequest request={entries} errorTitle="Failed to fetch the audit log" loadingLabel="Loading the audit log…">
        {(reply) => (
          <AdminTable label="Audit entries" columns={columns} rows={reply.entries} busy={entries.status === "loading"}
            rowProps={(entry) => ({ "data-action": entry.action, "data-entity": `${entry.entityType}:${entry.entityId}` })}
            empty={list.filtered
              ? { title: "No changes found", text: "Nothing was changed that matches these filters." }
              : { title: "No changes yet", text: "Every change an administrator makes is recorded here." }}
            list={list} pages={reply.pagination} pagerLabel="Audit log pages" />
        )}
      </ListRequest>
    </>
  );
}
