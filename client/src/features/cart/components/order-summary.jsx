// The order summary box of the cart and checkout: the server's quote (items, coupon, shipping, COD fee, tax,
// total; POST /api/cart/quote), optionally with the lines. The client adds up nothing it charges.
import { Price } from "../../../components/ui/price.jsx";
import { formatRupees } from "../../../lib/money.js";
import { unitPaise } from "../cart-reducer.js";
import { useCart } from "../cart-context.jsx";

const rupees = (paise) => formatRupees(paise / 100);
const listPaise = (book) => Math.round(Number(book.price) * 100) || 0;

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

/** `quote` is the server's answer (null while the first is on its way); `quoteError` when it failed. */
export function OrderSummary({ showLines = false, quote = null, quoteError = null, children }) {
  const { lines, itemsTotalPaise, count: copies } = useCart();
  return (
    <section className="order-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">Order Summary</h2>
      {showLines && (
        <ul className="order-summary__lines">
          {lines.map(({ book, quantity }) => (
            <li key={book._id}>
              <span className="order-summary__line-title">{book.title} <span className="order-summary__qty">× {quantity}</span></span>
              <Price as="span" className="order-summary__line-price" price={(listPaise(book) * quantity) / 100}
                discountedPrice={(unitPaise(book) * quantity) / 100} />
            </li>
          ))}
        </ul>
      )}
      {quote ? <QuoteFigures quote={quote} copies={copies} /> : (
        <>
          <dl className="order-summary__figures">
            <div><dt>Items ({copies})</dt><dd>{rupees(itemsTotalPaise)}</dd></div>
          </dl>
          <p className="order-summary__pending" role="status">
            {quoteError ? "We couldn't work out shipping and the total just now." : "Working out shipping and the total…"}
          </p>
        </>
      )}
      {children}
    </section>
  );
}
