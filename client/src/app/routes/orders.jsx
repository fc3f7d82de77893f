// My Orders (/orders, also /order): each order's summary (number, status, copies, total, promise, bill); View
// Details reads the whole order (lines, history, parcels); Cancel within the hour.
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { formatRupees } from "../../lib/money.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner, ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { cancelOrder, getMyOrders, getOrder } from "../../features/orders/api.js";
import { BillLink, OrderDetails, StatusBadge } from "../../features/orders/components/order-details.jsx";
import { canCancel, formatDate, promiseText } from "../../features/orders/labels.js";
import { RequireSignIn } from "./login.jsx";
import { focusHeading, screenHeading } from "../../components/layout/focus-heading.js";

const PAGE_SIZE = 10;

function OrderCard({ order, onChanged }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const detailsId = `order-${order._id}`;
  const heading = useRef(null);
  const cancelButton = useRef(null);
  const asked = useRef(false);
  const justCancelled = useRef(false);

  // The buttons pressed disappear: focus goes where the change is, never back to <body>. A cancelled
  // order's heading (read out with the status after it), or Cancel Order again after Keep Order.
  useEffect(() => {
    if (justCancelled.current && order.status === "cancelled") {
      justCancelled.current = false;
      heading.current?.focus();
    }
  }, [order.status]);
  useEffect(() => {
    if (!confirming && asked.current) cancelButton.current?.focus();
    asked.current = confirming;
  }, [confirming]);

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const cancelled = await cancelOrder(order._id);
      justCancelled.current = true;
      onChanged(cancelled, order.paymentStatus === "paid"
        ? `Order ${order.orderNumber} has been cancelled. Your payment will be refunded in 3-5 business days.`
        : `Order ${order.orderNumber} has been cancelled.`);
    } catch (failure) {
      setError(failure.message || "Failed to cancel the order");
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card order-card">
      <div className="order-card__head">
        <h2 ref={heading} tabIndex={-1}>Order {order.orderNumber}</h2>
        <StatusBadge status={order.status} />
      </div>
      <p className="order-card__meta">
        Placed {formatDate(order.createdAt)} · {order.itemCount} {order.itemCount === 1 ? "book" : "books"} · {formatRupees(order.totalPrice)}
      </p>
      {promiseText(order) && <p className="order-promise">{promiseText(order)}</p>}
      {error && <Banner onDismiss={() => setError(null)}>{error}</Banner>}
      <div className="order-card__actions">
        <button type="button" className="button button--secondary button--small" aria-expanded={open}
          aria-controls={detailsId} onClick={() => setOpen(!open)}>
          {open ? "Hide Details" : "View Details"}<span className="sr-only"> of order {order.orderNumber}</span>
        </button>
        <BillLink order={order} />
        {canCancel(order) && !confirming && (
          <button ref={cancelButton} type="button" className="link-button link-button--danger" onClick={() => setConfirming(true)}>
            Cancel Order<span className="sr-only"> {order.orderNumber}</span>
          </button>
        )}
        {confirming && (
          <span className="order-card__confirm" role="group" aria-label="Confirm cancellation">
            Cancel this order?{" "}
            <button type="button" className="button button--small" onClick={cancel} disabled={busy}>Yes, Cancel It</button>{" "}
            {/* Focus lands on the safe choice when the question appears. */}
            <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)} disabled={busy}
              autoFocus>Keep Order</button>
          </span>
        )}
      </div>
      <div id={detailsId} hidden={!open}>
        {open && <WholeOrder key={order.status} orderId={order._id} />}
      </div>
    </li>
  );
}

// The list carries each order's summary; its lines, history and parcels are read when opened.
// Keyed by the order's status, so a cancel reads it again.
function WholeOrder({ orderId }) {
  const request = useCallback(({ signal }) => getOrder(orderId, { signal }), [orderId]);
  const { status: loading, data, error, retry } = useRequest(request);
  if (loading === "error") return <ErrorNotice title="Failed to fetch the order." error={error} retry={retry} />;
  if (!data) return <Loading label="Loading the order…" />;
  return <OrderDetails order={data} showPromise={false} showBill={false} />;
}

function OrdersScreen() {
  usePageMeta("My Orders");
  const [page, setPage] = useState(1);
  const [note, setNote] = useState(null);
  const [replaced, setReplaced] = useState({});
  const request = useCallback(({ signal }) => getMyOrders({ page, limit: PAGE_SIZE, signal }), [page]);
  const { status, data, error, retry } = useRequest(request);
  const shownPage = useRef(page);

  // Previous and Next bring another page of orders: focus goes to the screen's heading once it shows.
  useEffect(() => {
    if (status !== "success" || shownPage.current === page) return undefined;
    shownPage.current = page;
    return focusHeading(screenHeading);
  }, [page, status]);

  const changed = (order, message) => {
    setReplaced((current) => ({ ...current, [order._id]: order }));
    setNote(message);
  };

  return (
    <div className="container page">
      <h1>My Orders</h1>
      {note && <Banner tone="success" onDismiss={() => setNote(null)}>{note}</Banner>}
      {status === "loading" && <Loading label="Loading your orders…" />}
      {status === "error" && <ErrorNotice title="Failed to fetch orders." error={error} retry={retry} />}
      {status === "success" && data.orders.length === 0 && (
        <div className="empty empty--large">
          <p className="empty__title">No orders yet</p>
          <p>When you place an order it will appear here.</p>
          <Link className="button" to={paths.books()}>Start Shopping</Link>
        </div>
      )}
      {status === "success" && data.orders.length > 0 && (
        <>
          <ul className="order-list">
            {data.orders.map((order) => <OrderCard key={order._id} order={replaced[order._id] ?? order} onChanged={changed} />)}
          </ul>
          {data.totalPages > 1 && (
            <nav className="pager" aria-label="Order pages">
              <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>Previous</button>
              <span>Page {page} of {data.totalPages}</span>
              <button type="button" className="button button--secondary" disabled={page >= data.totalPages} onClick={() => setPage(page + 1)}>Next</button>
            </nav>
          )}
        </>
      )}
      <p className="auth-page__switch">Ordered as a guest? <Link to={paths.orderLookup()}>Find an order by its number</Link></p>
    </div>
  );
}

export function Orders() {
  return <RequireSignIn><OrdersScreen /></RequireSignIn>;
}

export { Orders as Component };
