// One order in full: lines, figures, delivery address and its timeline.
import { formatRupees } from "../../../lib/money.js";
import {
  confirmByText, formatDate, paymentStatusLabel, PAYMENT_METHODS, promiseText, statusKey, statusLabel,
} from "../labels.js";
import { timelineOf } from "../timeline.js";
import { DownloadButton } from "./download-button.jsx";

/** The bill of supply's PDF (the order reply's billUrl carries the order link's token), once it is due. */
export function BillLink({ order, className = "button button--secondary button--small" }) {
  if (!order.billUrl) return null;
  return (
    <a className={className} href={order.billUrl} download>
      Download Bill<span className="sr-only"> of supply for order {order.orderNumber}</span> (PDF)
    </a>
  );
}

export function StatusBadge({ status }) {
  return <span className={`status-badge status-badge--${statusKey(status)}`}>{statusLabel(status)}</span>;
}

/** `showPromise`: the "Arriving between …" line (a list whose card already says it leaves it out); `showBill`:
 * the bill's download link (a card with its own leaves it out); `onDownloaded`: after a line's download starts. */
export function OrderDetails({ order, headingLevel = 3, showPromise = true, showBill = true, onDownloaded }) {
  const Heading = `h${headingLevel}`;
  const address = order.shippingAddress ?? {};
  const promise = showPromise ? promiseText(order) : "";
  const waiting = confirmByText(order);
  return (
    <div className="order-details">
      {waiting && <p className="order-confirm-by">{waiting}</p>}
      {promise && <p className="order-promise">{promise}</p>}
      <ul className="order-details__lines" aria-label="Books in this order">
        {order.orderItems.map((line) => (
          <li key={line.book ?? `kit-${line.kit}`} className="order-line">
            {line.imageUrl
              ? <img src={line.imageUrl} alt="" width="48" height="64" loading="lazy" className="order-line__cover" />
              : <span className="order-line__cover order-line__cover--placeholder" aria-hidden="true" />}
            <span className="order-line__title">{line.title}<span className="order-line__author">{line.author}</span></span>
            <span className="order-line__qty">{line.quantity} × {formatRupees(line.price)}</span>
            <span className="order-line__total">{formatRupees(line.lineTotal)}</span>
            {line.digital && <DownloadButton order={order} line={line} onDownloaded={onDownloaded} />}
          </li>
        ))}
      </ul>
      <dl className="order-details__figures">
        <div><dt>Items</dt><dd>{formatRupees(order.itemsPrice)}</dd></div>
        {order.discount > 0 && (
          <div><dt>Coupon{order.couponCode ? ` ${order.couponCode}` : ""}</dt><dd>−{formatRupees(order.discount)}</dd></div>
        )}
        <div><dt>Shipping</dt><dd>{order.shippingPrice > 0 ? formatRupees(order.shippingPrice) : `${formatRupees(0)} (free)`}</dd></div>
        {order.codFee > 0 && <div><dt>Cash on delivery fee</dt><dd>{formatRupees(order.codFee)}</dd></div>}
        <div className="order-details__total"><dt>Total</dt><dd>{formatRupees(order.totalPrice)}</dd></div>
        <div><dt>Payment</dt><dd>{PAYMENT_METHODS[order.paymentMethod] ?? order.paymentMethod} · {paymentStatusLabel(order.paymentStatus)}</dd></div>
      </dl>
      {showBill && order.billUrl && <p className="order-details__bill"><BillLink order={order} /></p>}
      <div className="order-details__more">
        <section>
          <Heading>{order.digitalOnly ? "Delivery" : "Delivery address"}</Heading>
          {order.digitalOnly ? (
            <p>
              {address.firstName} {address.lastName}<br />
              E-books and audiobooks: download them above
              {order.downloadsUntil ? ` until ${formatDate(order.downloadsUntil)}` : " once paid"}.
            </p>
          ) : (
            <p>
              {address.firstName} {address.lastName}<br />
              {address.address}{address.landmark ? `, ${address.landmark}` : ""}<br />
              {address.city}, {address.state} {address.zipCode}
            </p>
          )}
        </section>
        <section className="order-timeline-section">
          <Heading>Order timeline</Heading>
          <OrderTimeline order={order} />
        </section>
      </div>
    </div>
  );
}

/** Placed, paid, packed, each parcel with its courier and AWB (a link to the courier's tracking page), each
 * tracking event, delivered; and, while the order is on its way, the promised dates. */
export function OrderTimeline({ order }) {
  const steps = timelineOf(order, promiseText(order));
  return (
    <ol className="order-timeline">
      {steps.map((step) => (
        <li key={step.key} className={`order-timeline__step order-timeline__step--${step.kind}`}>
          <span className="order-timeline__dot" aria-hidden="true" />
          <span className="order-timeline__title">{step.title}</span>
          {step.at && <time className="order-timeline__time" dateTime={step.at}>{formatDate(step.at)}</time>}
          {step.awb && (
            <span className="order-timeline__detail">
              AWB{" "}
              {step.link
                ? <a href={step.link} target="_blank" rel="noopener noreferrer">{step.awb}<span className="sr-only"> (track the parcel, opens in a new tab)</span></a>
                : step.awb}
            </span>
          )}
          {step.detail && <span className="order-timeline__detail">{step.detail}</span>}
        </li>
      ))}
    </ol>
  );
}
