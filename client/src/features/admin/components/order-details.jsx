// The order modal: order, customer, lines, totals, payment, status history, and a status change.
import { useCallback, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { getOrder, updateOrderStatus } from "../api.js";
import { allowedOrderStatuses, customerName, formatDateTime, needsReason, PAYMENT_METHODS, statusLabel } from "../format.js";
import { Alert } from "./alert.jsx";
import { Modal } from "./modal.jsx";
import { OrderStatusBadge } from "./status-badge.jsx";
import { OrderStatusSelect } from "./order-status-select.jsx";
import { OrderShipments } from "./order-shipments.jsx";
import { OrderRefunds } from "./order-refunds.jsx";
import { AdminLoading, AdminLoadError } from "./request-state.jsx";

export function OrderDetailsModal({ orderId, onClose, onChanged }) {
  const { status, data: order, error, retry } = useRequest(useCallback(({ signal }) => getOrder(orderId, { signal }), [orderId]));
  return (
    <Modal title={order ? `Order ${order.orderNumber}` : "Order details"} onClose={onClose}>
      {status === "loading" && !order && <AdminLoading label="Loading the order…" />}
      {status === "error" && <AdminLoadError title="Failed to fetch orders" error={error} retry={retry} />}
      {order && <OrderDetails order={order} onChanged={(changed) => { retry(); onChanged(changed); }} />}
    </Modal>
  );
}

function OrderDetails({ order, onChanged }) {
  const address = order.shippingAddress ?? {};
  const [next, setNext] = useState(order.status);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState(null);
  const canMove = allowedOrderStatuses(order, { withReason: true }).length > 0;

  const save = async (event) => {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      const reply = await updateOrderStatus(order._id, next, note.trim());
      setNotice({ kind: "success", text: reply.message || `Order is now ${next}` });
      setNote("");
      onChanged(reply.order);
    } catch (failure) {
      setNotice({ kind: "error", text: `Failed to update order status. ${failure.message ?? ""}`.trim() });
      setNext(order.status);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="adm-order">
      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      <div className="adm-order__cols">
        <section aria-labelledby="order-info">
          <h3 id="order-info">Order</h3>
          <dl className="adm-dl">
            <dt>Order number</dt><dd>{order.orderNumber}</dd>
            <dt>Placed</dt><dd>{formatDateTime(order.createdAt)}</dd>
            <dt>Status</dt><dd><OrderStatusBadge status={order.status} /></dd>
            {order.confirmBy && order.status === "pending" && (
              <><dt>Confirmation</dt>
                <dd>Waiting for the shop's confirmation until {formatDateTime(order.confirmBy)} (move it to
                  processing to confirm; otherwise it is cancelled then)</dd></>
            )}
            <dt>Payment</dt>
            <dd>
              {PAYMENT_METHODS[order.paymentMethod] ?? order.paymentMethod} · {statusLabel(order.paymentStatus)}
              {order.paidAt && <> on {formatDateTime(order.paidAt)}</>}
            </dd>
            {order.paymentId && <><dt>Payment ID</dt><dd><code>{order.paymentId}</code></dd></>}
            {order.billUrl && (
              <><dt>Bill of supply</dt>
                <dd>{order.billNumber ? `${order.billNumber} · ` : ""}<a href={order.billUrl} download>Download PDF</a></dd></>
            )}
            {order.buyerGstin && <><dt>Buyer GSTIN</dt><dd><code>{order.buyerGstin}</code></dd></>}
          </dl>
        </section>
        <section aria-labelledby="order-customer">
          <h3 id="order-customer">Customer</h3>
          <dl className="adm-dl">
            <dt>Name</dt><dd>{customerName(order)}</dd>
            <dt>Email</dt><dd><a href={`mailto:${address.email}`}>{address.email}</a></dd>
            <dt>Phone</dt><dd><a href={`tel:${address.phone}`}>{address.phone}</a></dd>
            <dt>Address</dt>
            <dd>
              {address.address}{address.landmark && <>, near {address.landmark}</>}<br />
              {address.city}, {address.state} {address.zipCode}<br />
              {address.country}{address.addressType && <> · {statusLabel(address.addressType)}</>}
            </dd>
          </dl>
        </section>
      </div>

      <section aria-labelledby="order-items">
        <h3 id="order-items">Items</h3>
        <div className="adm-table-wrap" tabIndex={0} role="region" aria-labelledby="order-items">
          <table className="adm-table adm-table--compact">
            <thead>
              <tr>
                <th scope="col"><span className="sr-only">Cover</span></th>
                <th scope="col">Book</th>
                <th scope="col" className="adm-num">Qty</th>
                <th scope="col" className="adm-num">Price</th>
                <th scope="col" className="adm-num">Total</th>
              </tr>
            </thead>
            <tbody>
              {order.orderItems.map((item) => (
                <tr key={item.book}>
                  <td className="adm-cover-cell">
                    {item.image ? <img src={item.image} alt="" width="32" height="48" className="adm-thumb" loading="lazy" />
                      : <span className="adm-thumb adm-thumb--none" aria-hidden="true" />}
                  </td>
                  <td>{item.name}{item.author && <span className="adm-muted adm-small">{item.author}</span>}</td>
                  <td className="adm-num">{item.quantity}</td>
                  <td className="adm-num">{formatRupees(item.price)}</td>
                  <td className="adm-num">{formatRupees(item.lineTotal ?? item.price * item.quantity)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row" colSpan={4}>Items</th><td className="adm-num">{formatRupees(order.itemsPrice)}</td></tr>
              <tr><th scope="row" colSpan={4}>Shipping</th><td className="adm-num">{formatRupees(order.shippingPrice)}</td></tr>
              <tr><th scope="row" colSpan={4}>Tax</th><td className="adm-num">{formatRupees(order.taxPrice)}</td></tr>
              <tr className="adm-total"><th scope="row" colSpan={4}>Total</th><td className="adm-num">{formatRupees(order.totalPrice)}</td></tr>
            </tfoot>
          </table>
        </div>
      </section>

      <OrderShipments order={order} onChanged={onChanged} />
      <OrderRefunds order={order} onChanged={onChanged} />

      <div className="adm-order__cols">
        <section aria-labelledby="order-history">
          <h3 id="order-history">Status history</h3>
          <ol className="adm-history">
            {(order.statusHistory ?? []).map((change, index) => (
              <li key={`${change.at}-${index}`}>
                <OrderStatusBadge status={change.status} />
                <span>{formatDateTime(change.at)}</span>
                {change.by && <span className="adm-muted"> by {change.by}</span>}
                {change.note && <p className="adm-history__note">{change.note}</p>}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="order-change">
          <h3 id="order-change">Change status</h3>
          {canMove ? (
            <form onSubmit={save} className="adm-form">
              <div className="adm-field">
                <label htmlFor="order-status">New status</label>
                <OrderStatusSelect id="order-status" order={order} value={next} onChange={setNext} disabled={busy} withReason />
              </div>
              <div className="adm-field">
                <label htmlFor="order-note">
                  {needsReason(order, next) ? "Reason (required: this moves the order back or past a step)" : "Note for the history (optional)"}
                </label>
                <input id="order-note" type="text" maxLength={300} value={note} onChange={(event) => setNote(event.target.value)}
                  disabled={busy} required={needsReason(order, next)} />
              </div>
              <p className="adm-hint">The customer gets an e-mail about the change.{next === "cancelled" && " Cancelling puts the copies back in stock."}</p>
              <button type="submit" className="adm-button" disabled={busy || next === order.status}>
                {busy ? "Updating…" : "Update status"}
              </button>
            </form>
          ) : order.status === "cancelled" ? (
            <p className="adm-muted">A cancelled order cannot change status: its copies are back in stock.</p>
          ) : order.status === "returned" ? (
            <p className="adm-muted">A returned order cannot change status: its parcels are back on the shelf.</p>
          ) : (
            <p className="adm-muted">This online order is not paid yet: it can move on once the payment is received.</p>
          )}
        </section>
      </div>
    </div>
  );
}
