// Order success (/order/success): what was ordered, where it goes, how it is paid, when it arrives, and what next.
import { useEffect, useState } from "react";
import { Link, useLocation } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { formatRupees } from "../../lib/money.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { lastOrder } from "../../features/checkout/last-order.js";
import { lookupOrder } from "../../features/orders/api.js";
import { OrderDetails } from "../../features/orders/components/order-details.jsx";
import { formatDate, paymentStatusLabel, PAYMENT_METHODS, promiseText } from "../../features/orders/labels.js";

export function OrderSuccess() {
  usePageMeta("Order Confirmed");
  const { state } = useLocation();
  const { isSignedIn } = useAuth();
  const remembered = lastOrder();
  const [order, setOrder] = useState(state?.order ?? remembered);

  // After a reload the remembered copy may be stale (paid by the webhook since): ask the server.
  useEffect(() => {
    if (state?.order || !remembered?.orderNumber || !remembered?.email) return undefined;
    const controller = new AbortController();
    lookupOrder({ orderNumber: remembered.orderNumber, email: remembered.email, signal: controller.signal })
      .then(setOrder, () => {});
    return () => controller.abort();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, for the order shown on arrival

  if (!order) {
    return (
      <div className="container page">
        <h1>No recent order</h1>
        <p>There is no order to confirm in this browser tab.</p>
        <p><Link className="button" to={paths.books()}>Continue Shopping</Link></p>
      </div>
    );
  }

  const paid = order.paymentStatus === "paid";
  const promise = promiseText(order);
  return (
    <div className="container page order-success">
      <div className="order-success__head">
        <span className="order-success__tick" aria-hidden="true">✓</span>
        <h1>Thank you! Your order has been placed.</h1>
        {promise && <p className="order-promise">{promise}.</p>}
        <p>A confirmation {paid || order.paymentMethod === "cod" ? "e-mail is on its way" : "e-mail follows once the payment is confirmed"}.</p>
      </div>
      <dl className="order-success__facts">
        <div><dt>Order Number</dt><dd>{order.orderNumber}</dd></div>
        <div><dt>Order ID</dt><dd className="order-success__id">{order._id}</dd></div>
        <div><dt>Date</dt><dd>{formatDate(order.createdAt)}</dd></div>
        <div><dt>Total</dt><dd>{formatRupees(order.totalPrice)}</dd></div>
        <div><dt>Payment Method</dt><dd>{PAYMENT_METHODS[order.paymentMethod] ?? order.paymentMethod}</dd></div>
        {order.paymentId && <div><dt>Payment ID</dt><dd>{order.paymentId}</dd></div>}
        <div><dt>Payment Status</dt><dd><span className={`status-badge status-badge--${paid ? "delivered" : "pending"}`}>{paymentStatusLabel(order.paymentStatus)}</span></dd></div>
      </dl>
      <section className="card order-result" aria-labelledby="order-summary">
        <h2 id="order-summary">Your order</h2>
        <OrderDetails order={order} showPromise={false} />
      </section>
      <section className="order-success__next" aria-labelledby="whats-next">
        <h2 id="whats-next">What's Next?</h2>
        <ul className="ticks">
          <li>You will receive an order confirmation e-mail shortly.</li>
          <li>We will process your order within 24 hours.</li>
          <li>{promise ? `${promise}.` : "Your books will be delivered in 3-5 business days."}</li>
          <li>{order.paymentMethod === "cod" ? "Please keep the exact amount ready to pay on delivery." : "You can follow your order's status at any time."}</li>
        </ul>
      </section>
      <p className="order-success__actions">
        <Link className="button" to={paths.books()}>Continue Shopping</Link>
        {order.link && <Link className="button button--secondary" to={order.link}>View this order</Link>}
        {isSignedIn
          ? <Link className="button button--secondary" to={paths.orders()}>View My Orders</Link>
          : !order.link && <Link className="button button--secondary" to={paths.orderLookup({ orderNumber: order.orderNumber })}>Track this order</Link>}
      </p>
    </div>
  );
}

export { OrderSuccess as Component };
