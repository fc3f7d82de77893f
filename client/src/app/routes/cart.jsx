// Cart (/cart): the lines with quantity controls, the server's prices for them (coupon, shipping, total), the
// delivery dates to the PIN the shopper last checked, and what changed since the books were added.
import { useEffect } from "react";
import { Link, useNavigate } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { plural } from "../../lib/plural.js";
import { useCart } from "../../features/cart/cart-context.jsx";
import { CartLine } from "../../features/cart/components/cart-line.jsx";
import { useKitRefresh } from "../../features/cart/use-kit-refresh.js";
import { CartChanges } from "../../features/cart/components/cart-changes.jsx";
import { OrderSummary } from "../../features/cart/components/order-summary.jsx";
import { CouponField } from "../../features/checkout/components/coupon-field.jsx";
import { useStoredCoupon } from "../../features/checkout/coupon-storage.js";
import { useQuote } from "../../features/checkout/use-quote.js";
import { estimateText, savedPin } from "../../lib/pin.js";
import { useDelivery } from "../../features/delivery/use-delivery.js";

/** "Delivery to Bengaluru (560001): Delivered between …", or the shop's word on the PIN; "" without one. */
function DeliveryEstimate({ pin }) {
  const delivery = useDelivery(pin);
  if (delivery.status !== "success") return null;
  const { data } = delivery;
  const when = data.serviceable ? estimateText(data.estimate) : "";
  return (
    <p className="order-summary__delivery" role="status">
      <strong>Delivery to {data.city ? `${data.city} (${data.pin})` : data.pin}:</strong>{" "}
      {when ? `${when}.` : data.message}{" "}
      <span className="order-summary__delivery-note">Change the PIN at checkout.</span>
    </p>
  );
}

export function Cart() {
  usePageMeta("Your Cart");
  const cart = useCart();
  const navigate = useNavigate();
  const { refresh } = cart;
  useKitRefresh();
  const pin = savedPin();
  // Applied here, the code is still applied at checkout (features/checkout/coupon-storage.js).
  const [couponCode, setCouponCode] = useStoredCoupon();
  const { quote, current, error } = useQuote(cart.lines, { zipCode: pin, couponCode, method: "", email: "" });

  // Prices and stock may have moved since the books were added: re-read them on every visit.
  useEffect(() => {
    const controller = new AbortController();
    refresh({ signal: controller.signal }).catch(() => {});
    return () => controller.abort();
  }, [refresh]);

  return (
    <div className="container page cart-page">
      <h1>Shopping Cart</h1>
      <CartChanges />
      {cart.lines.length === 0 ? (
        <div className="empty empty--large">
          <p className="empty__title">Your cart is empty</p>
          <p>Find your next study book in our catalogue.</p>
          <Link className="button" to={paths.books()}>Continue Shopping</Link>
        </div>
      ) : (
        <div className="cart-layout">
          <section aria-labelledby="cart-items-title" className="cart-items">
            <h2 id="cart-items-title" className="sr-only">Items in your cart</h2>
            <p className="cart-items__count">
              {plural(cart.count, "item")}{cart.lines.length !== cart.count && ` (${plural(cart.lines.length, "book")})`} in your cart
            </p>
            <ul className="cart-lines">
              {cart.lines.map((line) => <CartLine key={line.book._id} line={line} />)}
            </ul>
          </section>
          <OrderSummary quote={quote} quoteError={error}>
            <CouponField code={couponCode} verdict={current ? quote?.coupon : null} busy={!current}
              onApply={setCouponCode} onRemove={() => setCouponCode("")} />
            {pin && <DeliveryEstimate pin={pin} />}
            <div className="order-summary__actions">
              <button type="button" className="button" onClick={() => navigate(paths.checkout())}>
                Proceed to Checkout
              </button>
              <Link className="button button--secondary" to={paths.books()}>Continue Shopping</Link>
              <button type="button" className="link-button link-button--danger" onClick={cart.clear}>Clear Cart</button>
            </div>
          </OrderSummary>
        </div>
      )}
    </div>
  );
}

export { Cart as Component };
