// /admin/kits: kits newest first with their books, price, saving and stock; search by name, filter by status.
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { listKits } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount } from "../../../features/admin/format.js";
import { useListParams } from "../../../features/admin/use-list-params.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { AdminTable, ListFilters } from "../../../features/admin/components/admin-list.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

const STATUSES = ["active", "archived"];

export function Kits() {
  const list = useListParams({ status: STATUSES });
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState(location.state?.notice ?? null);
  const { page, search, filters: { status } } = list;
  const kits = useRequest(useCallback(({ signal }) => listKits({ page, search, status, signal }), [page, search, status]));

  // A message handed over by the editor is shown once, not again on reload.
  useEffect(() => {
    if (location.state?.notice) navigate(location.pathname + location.search, { replace: true, state: null });
  }, [location, navigate]);

  const total = kits.data?.pagination.total ?? 0;
  const columns = [
    { key: "name", header: "Kit", label: false, className: "adm-card-head",
      cell: (kit) => (
        <span>
          <strong>{kit.name}</strong>
          {kit.archived && <span className="adm-badge adm-badge--archived">Archived</span>}
          <br /><span className="adm-small">/kit/{kit.slug}{kit.exam ? ` · ${kit.exam.shortName}` : ""}</span>
        </span>
      ) },
    { key: "books", header: "Books", cell: (kit) => <span className="adm-small">{kit.books.map((b) => `${b.quantity} × ${b.title}`).join(", ")}</span> },
    { key: "price", header: "Price", className: "adm-num", headerClassName: "adm-num", cell: (kit) => formatRupees(kit.price) },
    { key: "saving", header: "Saving", className: "adm-num", headerClassName: "adm-num", cell: (kit) => formatRupees(kit.saving) },
    { key: "stock", header: "Stock", className: "adm-num", headerClassName: "adm-num", cell: (kit) => formatCount(kit.stock) },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions",
      cell: (kit) => (
        <Link to={adminPaths.editKit(kit._id)} className="adm-button adm-button--small adm-button--secondary"
          aria-label={`Edit kit ${kit.name}`}>Edit</Link>
      ) },
  ];

  return (
    <>
      <title>Kits — Bookstore Admin</title>
      <header className="adm-page-head adm-page-head--row">
        <div>
          <h1>Kits</h1>
          {kits.data && (
            <p className="adm-page-head__lead">
              {formatCount(total)} kit{total === 1 ? "" : "s"}{status && ` ${status}`}{search && ` matching “${search}”`}
            </p>
          )}
        </div>
        <Link to={adminPaths.newKit()} className="adm-button">+ New kit</Link>
      </header>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}

      <ListFilters list={list} label="Kits" idPrefix="kit" placeholder="Name or slug">
        <div className="adm-field">
          <label htmlFor="kit-status-filter">Status</label>
          <select id="kit-status-filter" value={status} onChange={(event) => list.update({ status: event.target.value, page: 1 })}>
            <option value="">All</option>
            <option value="active">On sale</option>
            <option value="archived">Archived</option>
          </select>
        </div>
      </ListFilters>

      {kits.status === "error" && <AdminLoadError title="Failed to fetch kits" error={kits.error} retry={kits.retry} />}
      {kits.status === "loading" && !kits.data && <AdminLoading label="Loading kits…" />}
      {kits.data && (
        <AdminTable label="Kit list" columns={columns} rows={kits.data.kits} busy={kits.status === "loading"}
          rowProps={(kit) => ({ "data-kit": kit.slug })}
          empty={list.filtered
            ? { title: "No kits found", text: "No kit matches these filters." }
            : { title: "No kits yet", text: "Kits sell several books together at a kit price." }}
          page={kits.data.pagination.page} totalPages={kits.data.pagination.totalPages} pagerLabel="Kit pages"
          onPage={(next) => list.update({ page: next })} />
      )}
    </>
  );
}
