// The order summary box of the cart and checkout: items, ₹40 shipping, total; optionally the lines.
// With the server's quote (checkout) its figures are shown instead: coupon, shipping, COD fee, total.
import { formatRupees } from "../../../lib/money.js";
import { unitPaise } from "../cart-reducer.js";
import { useCart } from "../cart-context.jsx";

const rupees = (paise) => formatRupees(paise / 100);

function QuoteFigures({ quote, copies }) {
  const coupon = quote.coupon?.applied ? quote.coupon : null;
  return (
    <dl className="order-summary__figures">
      <div><dt>Items ({copies})</dt><dd>{formatRupees(quote.itemsPrice)}</dd></div>
      {coupon && (
        <div className="order-summary__discount"><dt>Coupon {coupon.code}</dt><dd>−{formatRupees(quote.discount)}</dd></div>
      )}
      <div><dt>Shipping</dt><dd>{quote.shippingPrice > 0 ? formatRupees(quote.shippingPrice) : `${formatRupees(0)} (free)`}</dd></div>
      {quote.codFee > 0 && <div><dt>Cash on delivery fee</dt><dd>{formatRupees(quote.codFee)}</dd></div>}
      <div><dt>Tax</dt><dd>{formatRupees(quote.taxPrice)}</dd></div>
      <div className="order-summary__total"><dt>Total</dt><dd>{formatRupees(quote.totalPrice)}</dd></div>
    </dl>
  );
}

export function OrderSummary({ showLines = false, quote = null, children }) {
  const { lines, itemsTotalPaise, shippingPaise, totalPaise } = useCart();
  const copies = lines.reduce((total, line) => total + line.quantity, 0);
  return (
    <section className="order-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">Order Summary</h2>
      {showLines && (
        <ul className="order-summary__lines">
          {lines.map(({ book, quantity }) => (
            <li key={book._id}>
              <span className="order-summary__line-title">{book.title} <span className="order-summary__qty">× {quantity}</span></span>
              <span>{rupees(unitPaise(book) * quantity)}</span>
            </li>
          ))}
        </ul>
      )}
      {quote ? <QuoteFigures quote={quote} copies={copies} /> : (
        <dl className="order-summary__figures">
          <div><dt>Items ({copies})</dt><dd>{rupees(itemsTotalPaise)}</dd></div>
          <div><dt>Shipping</dt><dd>{rupees(shippingPaise)}</dd></div>
          <div><dt>Tax</dt><dd>{rupees(0)}</dd></div>
          <div className="order-summary__total"><dt>Total</dt><dd>{rupees(totalPaise)}</dd></div>
        </dl>
      )}
      {children}
    </section>
  );
}
