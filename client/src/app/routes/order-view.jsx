// One order (/orders/:id): the shopper's own when signed in, or anyone's who holds the order e-mail's link
// (/orders/:id?token=...): the order, Cancel within the hour, and the bill of supply once it is due.
import { lazy, Suspense, useCallback, useState } from "react";
import { Link, useParams, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner, ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { cancelOrder, getOrder } from "../../features/orders/api.js";
import { OrderDetails, StatusBadge } from "../../features/orders/components/order-details.jsx";
import { canCancel, formatDate } from "../../features/orders/labels.js";
import { RequireSignIn } from "./login.jsx";

// The returns panel is its own chunk: most order pages (not delivered, nothing returned) never load it.
const OrderReturns = lazy(() => import("../../features/returns/components/order-returns.jsx"));

function hasReturns(order) {
  return (order.returns ?? []).length > 0 || (order.returnableLines ?? []).length > 0;
}

function OrderScreen({ id, token }) {
  usePageMeta("Your Order");
  const request = useCallback(({ signal }) => getOrder(id, { token, signal }), [id, token]);
  const { status, data, error, retry } = useRequest(request);
  const [changed, setChanged] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState(null);
  // A download ends the shopper's cancel (the server would answer 409): the button goes at once.
  const [downloaded, setDownloaded] = useState(false);
  const order = changed ?? data;

  async function cancel() {
    setBusy(true);
    setNote(null);
    try {
      const cancelled = await cancelOrder(order._id, token);
      setChanged(cancelled);
      setNote({ tone: "success", text: order.paymentStatus === "paid"
        ? `Order ${order.orderNumber} has been cancelled. Your payment will be refunded in 3-5 business days.`
        : `Order ${order.orderNumber} has been cancelled.` });
    } catch (failure) {
      setNote({ tone: "error", text: failure.message || "Failed to cancel the order" });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  if (status === "loading" && !order) return <div className="container page"><Loading label="Loading your order…" /></div>;
  if (status === "error") {
    return (
      <div className="container page">
        <h1>Your Order</h1>
        <ErrorNotice title="We could not open this order." error={error}
          retry={error?.status >= 500 ? retry : undefined} />
        <p><Link to={paths.orderLookup()}>Find an order by its number and e-mail</Link></p>
      </div>
    );
  }
  return (
    <div className="container page">
      <div className="order-card__head">
        <h1>Order {order.orderNumber}</h1>
        <StatusBadge status={order.status} />
      </div>
      <p className="order-card__meta">Placed {formatDate(order.createdAt)}</p>
      {note && <Banner tone={note.tone} onDismiss={() => setNote(null)}>{note.text}</Banner>}
      {canCancel(order) && !downloaded && (
        <div className="order-card__actions">
          {!confirming && (
            <button type="button" className="link-button link-button--danger" onClick={() => setConfirming(true)}>
              Cancel Order
            </button>
          )}
          {confirming && (
            <span className="order-card__confirm" role="group" aria-label="Confirm cancellation">
              Cancel this order?{" "}
              <button type="button" className="button button--small" onClick={cancel} disabled={busy}>Yes, Cancel It</button>{" "}
              <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)}
                disabled={busy}>Keep Order</button>
            </span>
          )}
        </div>
      )}
      <section className="card order-result" aria-label={`Order ${order.orderNumber}`}>
        <OrderDetails order={order} headingLevel={2} onDownloaded={() => setDownloaded(true)} />
      </section>
      {hasReturns(order) && (
        <Suspense fallback={<Loading label="Loading returns…" />}>
          <OrderReturns order={order} token={token} onChanged={() => { setChanged(null); retry(); }} />
        </Suspense>
      )}
    </div>
  );
}

export function OrderView() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const { isSignedIn } = useAuth();
  // A link from an order e-mail needs no sign-in; without one the order is the signed-in owner's.
  if (!token && !isSignedIn) return <RequireSignIn><OrderScreen id={id} token="" /></RequireSignIn>;
  return <OrderScreen id={id} token={token} />;
}

export { OrderView as Component };
