// /admin/orders: every order, filtered and searched, with details, status changes and a CSV export.
import { useCallback, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { exportOrders, listOrders, updateOrderStatus } from "../../../features/admin/api.js";
import { customerName, ORDER_STATUSES, statusLabel } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { ConfirmDialog } from "../../../features/admin/components/confirm-dialog.jsx";
import { OrderDetailsModal } from "../../../features/admin/components/order-details.jsx";
import { OrderStatusSelect } from "../../../features/admin/components/order-status-select.jsx";
import { AdminPanel, FilterSelect, ListFilters, ListHead, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { OrderTable } from "../../../features/admin/components/order-table.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";
import { download } from "../../../features/admin/download.js";

export function ManageOrders() {
  const listParams = useListParams({ status: ORDER_STATUSES });
  const { page, search, filters: { status } } = listParams;
  const [viewing, setViewing] = useState(null);
  const [change, setChange] = useState(null); // {order, status}
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState(null);

  const orders = useRequest(useCallback(({ signal }) => listOrders({ page, status, search, signal }), [page, status, search]));

  const confirmChange = async () => {
    setBusy(true);
    try {
      const reply = await updateOrderStatus(change.order._id, change.status);
      setNotice({ kind: "success", text: `${change.order.orderNumber}: ${reply.message || `Order is now ${change.status}`}` });
      orders.retry();
    } catch (error) {
      setNotice({ kind: "error", text: `Failed to update order status. ${error.message ?? ""}`.trim() });
    } finally {
      setBusy(false);
      setChange(null);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const blob = await exportOrders({ status, search });
      download(blob, `orders-${new Date().toISOString().slice(0, 10)}.csv`);
      setNotice({ kind: "success", text: "The CSV export has been downloaded." });
    } catch (error) {
      setNotice({ kind: "error", text: `The export failed. ${error.message ?? ""}`.trim() });
    } finally {
      setExporting(false);
    }
  };

  const actions = (order) => (
    <>
      <button type="button" className="adm-button adm-button--small adm-button--secondary"
        aria-label={`View order ${order.orderNumber}`} onClick={() => setViewing(order._id)}>View</button>
      <OrderStatusSelect order={order} label={`Status of order ${order.orderNumber}`}
        onChange={(next) => next !== order.status && setChange({ order, status: next })} />
    </>
  );

  const list = orders.data;
  const total = list?.pagination?.totalOrders ?? 0;
  return (
    <>
      <title>Manage Orders — Bookstore Admin</title>
      <ListHead title="Manage Orders" count={list ? total : null} one="order" filtered={status && statusLabel(status).toLowerCase()} search={search}>
        <button type="button" className="adm-button adm-button--secondary" onClick={exportCsv} disabled={exporting}>
          {exporting ? "Preparing CSV…" : "Export CSV"}
        </button>
      </ListHead>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}

      <ListFilters list={listParams} label="Orders" idPrefix="order" placeholder="Order number, name, e-mail or phone">
        <FilterSelect list={listParams} name="status" id="order-status-filter" label="Status" allLabel="All statuses"
          options={ORDER_STATUSES.map((value) => [value, statusLabel(value)])} />
      </ListFilters>

      <ListRequest request={orders} errorTitle="Failed to fetch orders" loadingLabel="Loading orders…">
        {(data) => (
          <AdminPanel label="Orders" busy={orders.status === "loading"} list={listParams} pages={data.pagination}
            pagerLabel="Order pages">
            <OrderTable orders={data.orders} detailed actions={actions}
              empty={{ title: "No orders found",
                text: search || status ? "No order matches these filters." : "Orders appear here as soon as shoppers place them." }} />
          </AdminPanel>
        )}
      </ListRequest>

      {viewing && <OrderDetailsModal orderId={viewing} onClose={() => setViewing(null)} onChanged={() => orders.retry()} />}
      {change && (
        <ConfirmDialog title="Change order status" confirmLabel={`Mark as ${statusLabel(change.status)}`}
          danger={change.status === "cancelled"} busy={busy} onConfirm={confirmChange} onCancel={() => setChange(null)}>
          <p>
            Change order <strong>{change.order.orderNumber}</strong> ({customerName(change.order)})
            from <strong>{statusLabel(change.order.status)}</strong> to <strong>{statusLabel(change.status)}</strong>?
          </p>
          <p className="adm-muted">
            The customer gets an e-mail about the change.
            {change.status === "cancelled" && " Cancelling puts the copies back in stock and cannot be undone."}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
