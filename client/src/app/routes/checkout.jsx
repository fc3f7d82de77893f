// Checkout (/checkout): shipping, then payment, with the order summary beside them.
import { useEffect, useRef, useState } from "react";
import { Navigate, useNavigate } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { useCart } from "../../features/cart/cart-context.jsx";
import { CartChanges } from "../../features/cart/components/cart-changes.jsx";
import { OrderSummary } from "../../features/cart/components/order-summary.jsx";
import { getPaymentConfig } from "../../features/checkout/api.js";
import { CheckoutSteps } from "../../features/checkout/components/checkout-steps.jsx";
import { PaymentOptions } from "../../features/checkout/components/payment-options.jsx";
import { ShippingForm } from "../../features/checkout/components/shipping-form.jsx";
import { useCheckout } from "../../features/checkout/use-checkout.js";
import { FILL_ALL, validateShipping } from "../../features/checkout/validation.js";

const ADDRESS_KEY = "checkoutAddress";
const EMPTY_ADDRESS = { firstName: "", lastName: "", email: "", phone: "", address: "", landmark: "", city: "",
  state: "", zipCode: "", addressType: "home" };

function initialAddress(user) {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(ADDRESS_KEY));
    if (saved && typeof saved === "object") return { ...EMPTY_ADDRESS, ...saved };
  } catch {
    // nothing saved
  }
  return { ...EMPTY_ADDRESS, firstName: user?.firstName ?? "", lastName: user?.lastName ?? "",
    email: user?.email ?? "", phone: user?.phone ?? "" };
}

export function Checkout() {
  usePageMeta("Checkout");
  const { user } = useAuth();
  const cart = useCart();
  const navigate = useNavigate();
  const config = useRequest(getPaymentConfig);
  const { place, notice, setNotice, busy } = useCheckout();
  const [step, setStep] = useState(0);
  const [address, setAddress] = useState(() => initialAddress(user));
  const [errors, setErrors] = useState({});
  const [method, setMethod] = useState("");
  const finished = useRef(false);
  const { refresh } = cart;

  useEffect(() => {
    const controller = new AbortController();
    refresh({ signal: controller.signal }).catch(() => {});
    return () => controller.abort();
  }, [refresh]);

  useEffect(() => {
    try {
      window.sessionStorage.setItem(ADDRESS_KEY, JSON.stringify(address));
    } catch {
      // storage disabled: the form still works
    }
  }, [address]);

  // Spec: an empty cart sends the shopper to /cart (but not the cart just emptied by the order).
  if (cart.lines.length === 0 && !finished.current) return <Navigate to={paths.cart()} replace />;

  function toPayment(event) {
    event.preventDefault();
    const found = validateShipping(address);
    setErrors(found);
    if (Object.keys(found).length) {
      setNotice({ tone: "error", text: FILL_ALL });
      return;
    }
    setNotice(null);
    setStep(1);
    window.scrollTo({ top: 0 });
  }

  async function placeOrder(event) {
    event.preventDefault();
    const order = await place(address, method, config.data);
    if (!order) return;
    finished.current = true;
    cart.clear();
    window.sessionStorage.removeItem(ADDRESS_KEY);
    navigate(paths.orderSuccess(), { state: { order } });
  }

  return (
    <div className="container page checkout-page">
      <h1>Checkout</h1>
      <CheckoutSteps current={step} />
      {notice && (
        <Banner tone={notice.tone} focus onDismiss={notice.tone === "success" ? undefined : () => setNotice(null)}>
          {notice.text}
        </Banner>
      )}
      <CartChanges />
      <div className="checkout-layout">
        {step === 0 ? (
          <form className="checkout-step" onSubmit={toPayment} noValidate aria-label="Shipping">
            <ShippingForm address={address} errors={errors} onChange={setAddress} />
            <div className="checkout-step__actions">
              <button type="button" className="button button--secondary" onClick={() => navigate(paths.cart())}>Back</button>
              <button type="submit" className="button">Continue to Payment</button>
            </div>
          </form>
        ) : (
          <form className="checkout-step" onSubmit={placeOrder} noValidate aria-label="Payment">
            <section className="checkout-address" aria-labelledby="ship-to-title">
              <h2 id="ship-to-title">Shipping to</h2>
              <p>
                {address.firstName} {address.lastName}<br />
                {address.address}{address.landmark ? `, ${address.landmark}` : ""}<br />
                {address.city}, {address.state} {address.zipCode}, India<br />
                {address.phone} · {address.email}
              </p>
            </section>
            <PaymentOptions method={method} onChange={setMethod} config={config.data} />
            <div className="checkout-step__actions">
              <button type="button" className="button button--secondary" onClick={() => setStep(0)} disabled={busy}>Back</button>
              <button type="submit" className="button" disabled={busy}>{busy ? "Placing Order…" : "Place Order"}</button>
            </div>
          </form>
        )}
        <OrderSummary showLines />
      </div>
    </div>
  );
}

export { Checkout as Component };
