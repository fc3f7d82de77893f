// Cart (/cart): the lines with quantity controls, the summary, and what changed since they were added.
import { useEffect } from "react";
import { Link, useNavigate } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useCart } from "../../features/cart/cart-context.jsx";
import { CartLine } from "../../features/cart/components/cart-line.jsx";
import { CartChanges } from "../../features/cart/components/cart-changes.jsx";
import { OrderSummary } from "../../features/cart/components/order-summary.jsx";

export function Cart() {
  usePageMeta("Your Cart");
  const cart = useCart();
  const navigate = useNavigate();
  const { refresh } = cart;

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
            <p className="cart-items__count">{cart.count} {cart.count === 1 ? "item" : "items"} in your cart</p>
            <ul className="cart-lines">
              {cart.lines.map((line) => <CartLine key={line.book._id} line={line} />)}
            </ul>
          </section>
          <OrderSummary>
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
