// /admin/orders: every order, filtered and searched, with details, status changes and a CSV export.
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { exportOrders, listOrders, updateOrderStatus } from "../../../features/admin/api.js";
import { customerName, formatCount, formatDate, ORDER_STATUSES, statusLabel } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { EmailText } from "../../../features/admin/components/email-text.jsx";
import { ConfirmDialog } from "../../../features/admin/components/confirm-dialog.jsx";
import { OrderDetailsModal } from "../../../features/admin/components/order-details.jsx";
import { OrderStatusBadge } from "../../../features/admin/components/status-badge.jsx";
import { OrderStatusSelect } from "../../../features/admin/components/order-status-select.jsx";
import { Pager } from "../../../features/admin/components/pager.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

/** Save a Blob under filename through a temporary link (the export needs the admin token, so no plain link). */
function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ManageOrders() {
  const [params, setParams] = useSearchParams();
  const status = ORDER_STATUSES.includes(params.get("status")) ? params.get("status") : "";
  const search = params.get("search") ?? "";
  const page = Math.max(Number.parseInt(params.get("page") ?? "1", 10) || 1, 1);
  const [draft, setDraft] = useState(search);
  const [viewing, setViewing] = useState(null);
  const [change, setChange] = useState(null); // {order, status}
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState(null);

  useEffect(() => setDraft(search), [search]);
  const orders = useRequest(useCallback(({ signal }) => listOrders({ page, status, search, signal }), [page, status, search]));

  const update = (changes) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === "" || value == null || (key === "page" && value === 1)) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next);
  };

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

  const list = orders.data;
  const total = list?.pagination?.totalOrders ?? 0;
  return (
    <>
      <title>Manage Orders — Bookstore Admin</title>
      <header className="adm-page-head adm-page-head--row">
        <div>
          <h1>Manage Orders</h1>
          {list && <p className="adm-page-head__lead">{formatCount(total)} order{total === 1 ? "" : "s"}{status && ` ${statusLabel(status).toLowerCase()}`}{search && ` matching “${search}”`}</p>}
        </div>
        <button type="button" className="adm-button adm-button--secondary" onClick={exportCsv} disabled={exporting}>
          {exporting ? "Preparing CSV…" : "Export CSV"}
        </button>
      </header>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}

      <form className="adm-filters" role="search" aria-label="Orders" onSubmit={(event) => {
        event.preventDefault();
        update({ search: draft.trim(), page: 1 });
      }}>
        <div className="adm-field adm-field--grow">
          <label htmlFor="order-search">Search</label>
          <input id="order-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)}
            placeholder="Order number, name, e-mail or phone" maxLength={100} />
        </div>
        <div className="adm-field">
          <label htmlFor="order-status-filter">Status</label>
          <select id="order-status-filter" value={status} onChange={(event) => update({ status: event.target.value, page: 1 })}>
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((value) => <option key={value} value={value}>{statusLabel(value)}</option>)}
          </select>
        </div>
        <div className="adm-filters__actions">
          <button type="submit" className="adm-button">Search</button>
          {(search || status) && (
            <button type="button" className="adm-button adm-button--secondary" onClick={() => {
              setDraft("");
              setParams(new URLSearchParams());
            }}>Clear</button>
          )}
        </div>
      </form>

      {orders.status === "error" && <AdminLoadError title="Failed to fetch orders" error={orders.error} retry={orders.retry} />}
      {orders.status === "loading" && !list && <AdminLoading label="Loading orders…" />}
      {list && (
        <section className="adm-panel adm-panel--flush" aria-label="Orders" aria-busy={orders.status === "loading"}>
          {list.orders.length === 0 ? (
            <div className="adm-empty">
              <p className="adm-empty__title">No orders found</p>
              <p>{search || status ? "No order matches these filters." : "Orders appear here as soon as shoppers place them."}</p>
            </div>
          ) : (
            <div className="adm-table-wrap">
              <table className="adm-table adm-table--cards">
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Email</th>
                    <th scope="col" className="adm-num">Items</th>
                    <th scope="col" className="adm-num">Total</th>
                    <th scope="col">Status</th>
                    <th scope="col">Date</th>
                    <th scope="col"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.orders.map((order) => (
                    <tr key={order._id} data-order-id={order._id}>
                      <td data-label="Order"><code>{order.orderNumber}</code></td>
                      <td data-label="Customer">{customerName(order)}</td>
                      <td data-label="Email" className="adm-break"><a href={`mailto:${order.shippingAddress?.email}`}><EmailText email={order.shippingAddress?.email} /></a></td>
                      <td data-label="Items" className="adm-num">{order.itemCount ?? order.orderItems?.length}</td>
                      <td data-label="Total" className="adm-num">{formatRupees(order.totalPrice)}</td>
                      <td data-label="Status"><OrderStatusBadge status={order.status} /></td>
                      <td data-label="Date" className="adm-nowrap">{formatDate(order.createdAt)}</td>
                      <td className="adm-row-actions">
                        <button type="button" className="adm-button adm-button--small adm-button--secondary"
                          aria-label={`View order ${order.orderNumber}`} onClick={() => setViewing(order._id)}>View</button>
                        <OrderStatusSelect order={order} label={`Status of order ${order.orderNumber}`}
                          onChange={(next) => next !== order.status && setChange({ order, status: next })} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={list.pagination?.page ?? page} totalPages={list.pagination?.totalPages} label="Order pages"
            onPage={(next) => update({ page: next })} />
        </section>
      )}

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
