// /admin/kits: kits newest first with their books, price, saving and stock; search by name, filter by status.
import { useCallback } from "react";
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { listKits } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount } from "../../../features/admin/format.js";
import { useListParams } from "../../../features/admin/use-list-params.js";
import { useHandedNotice } from "../../../features/admin/use-handed-notice.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { AdminTable, FilterSelect, ListFilters, ListRequest } from "../../../features/admin/components/admin-list.jsx";

const STATUSES = ["active", "archived"];

export function Kits() {
  const list = useListParams({ status: STATUSES });
  const [notice, setNotice] = useHandedNotice();
  const { page, search, filters: { status } } = list;
  const kits = useRequest(useCallback(({ signal }) => listKits({ page, search, status, signal }), [page, search, status]));

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
        <FilterSelect list={list} name="status" id="kit-status-filter" label="Status"
          options={[["active", "On sale"], ["archived", "Archived"]]} />
      </ListFilters>

      <ListRequest request={kits} errorTitle="Failed to fetch kits" loadingLabel="Loading kits…">
        {(data) => (
          <AdminTable label="Kit list" columns={columns} rows={data.kits} busy={kits.status === "loading"}
            rowProps={(kit) => ({ "data-kit": kit.slug })}
            empty={list.filtered
              ? { title: "No kits found", text: "No kit matches these filters." }
              : { title: "No kits yet", text: "Kits sell several books together at a kit price." }}
            list={list} pages={data.pagination} pagerLabel="Kit pages" />
        )}
      </ListRequest>
    </>
  );
}
