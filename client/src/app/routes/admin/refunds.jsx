// /admin/refunds: refunds that need a person (Razorpay refused them for good, or they failed again and again), the
// longest waiting first, each with its order, Razorpay's last error and a Retry once the cause is fixed.
import { useCallback, useState } from "react";
import { Link } from "../../../lib/router.jsx";
import { formatRupees } from "../../../lib/money.js";
import { useRequest } from "../../../lib/use-request.js";
import { listStuckRefunds, retryRefund } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount, formatDateTime } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { AdminTable, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";

const KINDS = { cancel: "Cancelled order", return: "Return", rto: "Parcel back (RTO)", part: "Part refund" };

export function StuckRefunds() {
  const list = useListParams();
  const { page } = list;
  const refunds = useRequest(useCallback(({ signal }) => listStuckRefunds({ page, signal }), [page]));
  const [outcome, setOutcome] = useState(null); // {kind, text}
  const [busy, setBusy] = useState("");

  async function retry(item) {
    setBusy(`${item.kind}:${item._id}`);
    try {
      const reply = await retryRefund(item.kind, item._id);
      setOutcome({ kind: "success", text: `${reply.message}: order ${item.order.orderNumber}.` });
    } catch (error) {
      setOutcome({ kind: "error", text: error.message });
    } finally {
      setBusy("");
      refunds.retry();
    }
  }

  const columns = [
    { key: "order", header: "Order", label: false, className: "adm-card-head adm-nowrap", cell: (item) => (
      <Link to={adminPaths.orders({ search: item.order.orderNumber })}>{item.order.orderNumber}</Link>
    ) },
    { key: "kind", header: "Refund", cell: (item) => KINDS[item.kind] ?? item.kind },
    { key: "amount", header: "Amount", className: "adm-nowrap", cell: (item) => formatRupees(item.amount) },
    { key: "attempts", header: "Attempts", cell: (item) => (item.stopped ? `${item.attempts}, stopped` : item.attempts) },
    { key: "error", header: "Razorpay's last error", className: "adm-break", cell: (item) => item.error || "—" },
    { key: "since", header: "Since", className: "adm-nowrap", cell: (item) => formatDateTime(item.since) },
    { key: "retry", header: "Action", label: false, cell: (item) => (
      <button type="button" className="adm-button adm-button--small" disabled={busy !== ""}
        onClick={() => retry(item)}>
        {busy === `${item.kind}:${item._id}` ? "Retrying…" : "Retry"}
      </button>
    ) },
  ];

  const total = refunds.data?.pagination?.totalRefunds ?? 0;
  return (
    <>
      <title>Refunds needing attention — Bookstore Admin</title>
      <header className="adm-page-head">
        <h1>Refunds needing attention</h1>
        {refunds.data && (
          <p className="adm-page-head__lead">
            {formatCount(total)} refund{total === 1 ? "" : "s"} Razorpay refused or that keep failing, the longest
            waiting first. Fix the cause in Razorpay&apos;s dashboard, then retry.
          </p>
        )}
      </header>
      {outcome && <Alert kind={outcome.kind} onDismiss={() => setOutcome(null)}>{outcome.text}</Alert>}
      <ListRequest request={refunds} errorTitle="Failed to fetch the refunds" loadingLabel="Loading the refunds…">
        {(reply) => (
          <AdminTable label="Refunds needing attention" columns={columns} rows={reply.refunds}
            busy={refunds.status === "loading"}
            rowKey={(item) => `${item.kind}:${item._id}`}
            rowProps={(item) => ({ "data-refund": `${item.kind}:${item._id}` })}
            empty={{ title: "Nothing needs attention", text: "Every refund went through or is still being tried." }}
            list={list} pages={reply.pagination} pagerLabel="Refund pages" />
        )}
      </ListRequest>
    </>
  );
}
