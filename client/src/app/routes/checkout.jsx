// Checkout (/checkout): shipping, then payment, with the order summary beside them.
import { useCallback, useEffect, useRef, useState } from "react";
import { Navigate, useNavigate } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { currentShop } from "../../lib/shop.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { getToken, getUser, setAuth } from "../../lib/auth-storage.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { useCart } from "../../features/cart/cart-context.jsx";
import { CartChanges } from "../../features/cart/components/cart-changes.jsx";
import { OrderSummary } from "../../features/cart/components/order-summary.jsx";
import { useKitRefresh } from "../../features/cart/use-kit-refresh.js";
import { getPaymentConfig } from "../../features/checkout/api.js";
import { CheckoutSteps } from "../../features/checkout/components/checkout-steps.jsx";
import { CouponField } from "../../features/checkout/components/coupon-field.jsx";
import { PaymentOptions } from "../../features/checkout/components/payment-options.jsx";
import { ShippingForm } from "../../features/checkout/components/shipping-form.jsx";
import { forgetCoupon, useStoredCoupon } from "../../features/checkout/coupon-storage.js";
import { useCheckout } from "../../features/checkout/use-checkout.js";
import { useQuote } from "../../features/checkout/use-quote.js";
import { normalisePin, rememberPin, savedPin } from "../../lib/pin.js";
import { useDelivery } from "../../features/delivery/use-delivery.js";
import { FILL_ALL, stateMismatch, validateShipping } from "../../features/checkout/validation.js";
import { addAddress, listAddresses, savedFields } from "../../features/addresses/api.js";
import { SavedAddressChoice } from "../../features/addresses/components/saved-address-choice.jsx";

const ADDRESS_KEY = "checkoutAddress";
const EMPTY_ADDRESS = { firstName: "", lastName: "", email: "", phone: "", address: "", landmark: "", city: "",
  state: "", zipCode: "", addressType: "home", buyerGstin: "" };

function hasStoredAddress() {
  try {
    return Boolean(window.sessionStorage.getItem(ADDRESS_KEY));
  } catch {
    return false;
  }
}

/**
 * A signed-in shopper's address book at checkout: the saved addresses offered (the default chosen, unless this
 * visit's form was restored), and whether to save a new address once the order is placed.
 */
function useSavedAddresses(user, setAddress) {
  const [book, setBook] = useState({ addresses: [], limit: 0 });
  const [chosen, setChosen] = useState("new");
  const [saveNew, setSaveNew] = useState(false);
  const restored = useRef(hasStoredAddress());
  const signedIn = Boolean(user);

  const choose = useCallback((id, addresses) => {
    setChosen(id);
    const picked = addresses.find((address) => address._id === id);
    setAddress((address) => (picked
      ? { ...address, ...savedFields(picked) }
      : { ...EMPTY_ADDRESS, email: address.email }));
  }, [setAddress]);

  useEffect(() => {
    if (!signedIn) return undefined;
    const controller = new AbortController();
    listAddresses({ signal: controller.signal }).then((reply) => {
      setBook(reply);
      const preferred = reply.addresses.find((address) => address.isDefault);
      if (preferred && !restored.current) choose(preferred._id, reply.addresses);
    }, () => {});
    return () => controller.abort();
  }, [signedIn, choose]);

  return {
    addresses: book.addresses,
    chosen,
    choose: (id) => choose(id, book.addresses),
    canSave: signedIn && chosen === "new" && book.addresses.length < book.limit,
    saveNew,
    setSaveNew,
  };
}

function initialAddress(user) {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(ADDRESS_KEY));
    if (saved && typeof saved === "object") return { ...EMPTY_ADDRESS, ...saved };
  } catch {
    // nothing saved
  }
  // The PIN checked on a book page is where the books most likely go.
  return { ...EMPTY_ADDRESS, firstName: user?.firstName ?? "", lastName: user?.lastName ?? "",
    email: user?.email ?? "", phone: user?.phone ?? "", zipCode: savedPin(user) };
}

/**
 * City and state from the PIN's answer, where the shopper has not typed their own: an empty field, or one
 * still holding what an earlier PIN filled in, takes the new place; both stay editable.
 */
function useAutofillFromPin(delivery, setAddress) {
  const filled = useRef({ city: "", state: "" });
  useEffect(() => {
    if (delivery.status !== "success" || !delivery.data.serviceable) return;
    const { city, state } = delivery.data;
    setAddress((address) => {
      // A field the shopper is in when the answer is applied is theirs: it must not land mid-word.
      const typingIn = document.activeElement?.name;
      const next = { ...address };
      if (city && typingIn !== "city" && (!address.city.trim() || address.city === filled.current.city)) {
        next.city = city;
        filled.current.city = city;
      }
      if (state && currentShop()?.states.includes(state) && typingIn !== "state" && (!address.state || address.state === filled.current.state)) {
        next.state = state;
        filled.current.state = state;
      }
      return next;
    });
  }, [delivery, setAddress]);
}

export function Checkout() {
  usePageMeta("Checkout");
  const { user } = useAuth();
  const cart = useCart();
  const navigate = useNavigate();
  const config = useRequest(getPaymentConfig);
  const { place, notice, setNotice, busy } = useCheckout(cart);
  const [step, setStep] = useState(0);
  const [address, setAddress] = useState(() => initialAddress(user));
  const [errors, setErrors] = useState({});
  const [method, setMethod] = useState("");
  // A code applied in the cart comes along (and one applied here goes back to the cart).
  const [couponCode, setCouponCode] = useStoredCoupon();
  const [finished, setFinished] = useState(false); // the order is placed: its emptied cart is no reason to leave
  const stepTitle = useRef(null);
  const shownStep = useRef(step);
  const { refresh } = cart;
  useKitRefresh();
  const delivery = useDelivery(address.zipCode);
  useAutofillFromPin(delivery, setAddress);
  const saved = useSavedAddresses(user, setAddress);
  const { quote, current: quoteCurrent, latest: latestQuote, requote } = useQuote(cart.lines,
    { zipCode: address.zipCode, method, couponCode, email: address.email, phone: address.phone });
  // A state other than the PIN's needs the shopper's confirmation, given for this very PIN and state.
  const mismatch = delivery.status === "success" ? stateMismatch(address, delivery.data) : null;
  const [confirmedFor, setConfirmedFor] = useState(null);
  const mismatchKey = `${delivery.pin}|${address.state}`;
  const confirmedMismatch = Boolean(mismatch) && confirmedFor === mismatchKey;
  // Every line an e-book or audiobook: no address step fields, online payment only (product §7.11).
  const digitalOnly = quote?.digitalOnly === true;
  const hasDigital = Boolean(quote?.orderItems?.some((line) => line.digital));
  const cod = quoteCurrent && (normalisePin(address.zipCode) || hasDigital) ? quote?.cashOnDelivery : undefined;
  const onlineAvailable = config.data?.onlineAvailable === true;
  // The last answer refused cash on delivery (say for an e-book): it is not chosen again while the quote
  // for it is on its way, or choosing and refusing it would re-render without end (React error 301).
  const codRefusedBefore = Boolean(normalisePin(address.zipCode) || hasDigital)
    && quote?.cashOnDelivery?.available === false;

  // Cash on delivery refused for this PIN or total: the shopper pays online (when the shop can take it).
  // Cash on delivery is the only way to pay (the shop takes no online payments now): chosen for the shopper.
  // Both adjust the choice while rendering, so no frame shows a method that cannot be used.
  if (cod?.available === false && method !== "online") {
    const next = onlineAvailable ? "online" : "";
    if (next !== method) setMethod(next);
  } else if (config.data && !onlineAvailable && method === "" && !codRefusedBefore) {
    setMethod("cod");
  }

  // Continue to Payment and Back replace the form: focus goes to the new step's heading, which is read out.
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepTitle.current?.focus();
  }, [step]);


  useEffect(() => {
    if (normalisePin(address.zipCode)) rememberPin(address.zipCode);
  }, [address.zipCode]);

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

  // Product §5.1: an empty cart sends the shopper to /cart (but not the cart just emptied by the order).
  if (cart.lines.length === 0 && !finished) return <Navigate to={paths.cart()} replace />;

  function toPayment(event) {
    event.preventDefault();
    const found = validateShipping(address, { digitalOnly });
    if (!digitalOnly && mismatch && !confirmedMismatch && !found.state && !found.zipCode) found.stateMismatch = mismatch;
    setErrors(found);
    if (found.stateMismatch && Object.keys(found).length === 1) {
      setNotice({ tone: "error", text: `${mismatch} Please correct the state or the PIN code, or confirm that the address is right.` });
      return;
    }
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
    // The total is the server's quote for this PIN, payment method and coupon (asked now if the answer to
    // the last change is still on its way); without one (it failed) the cart's own sum goes, and the
    // server's 409 then shows the right figures.
    const priced = method ? await latestQuote().catch(() => null) : null;
    const order = await place({ ...address, confirmedStateMismatch: confirmedMismatch && !digitalOnly, digitalOnly },
      method, config.data,
      { totalPrice: priced?.totalPrice, couponCode: priced?.coupon?.applied ? priced.coupon.code : undefined });
    if (!order) {
      requote();
      return;
    }
    setFinished(true);
    // The server kept the order's PIN on the account: the stored copy of the account says the same.
    if (user && !digitalOnly) setAuth({ token: getToken(), user: { ...getUser(), deliveryPin: normalisePin(address.zipCode) } });
    // The order is placed whatever happens to the address book (it may be full, or the network gone).
    if (saved.canSave && saved.saveNew && !digitalOnly) addAddress(savedFields(address)).catch(() => {});
    cart.clear();
    forgetCoupon();
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
          <form className="checkout-step" onSubmit={toPayment} noValidate aria-labelledby="checkout-step-title">
            <h2 id="checkout-step-title" ref={stepTitle} tabIndex={-1} className="sr-only">Step 1 of 3: Shipping</h2>
            <SavedAddressChoice addresses={saved.addresses} chosen={saved.chosen} onChoose={saved.choose} />
            <ShippingForm address={address} errors={errors} onChange={setAddress} delivery={delivery} digitalOnly={digitalOnly}
              stateCheck={mismatch ? { mismatch, confirmed: confirmedMismatch,
                onConfirm: (yes) => setConfirmedFor(yes ? mismatchKey : null) } : null} />
            {saved.canSave && !digitalOnly && (
              <label className="choice">
                <input type="checkbox" name="saveAddress" checked={saved.saveNew}
                  onChange={(event) => saved.setSaveNew(event.target.checked)} />
                Save this address to my address book
              </label>
            )}
            <div className="checkout-step__actions">
              <button type="button" className="button button--secondary" onClick={() => navigate(paths.cart())}>Back</button>
              <button type="submit" className="button">Continue to Payment</button>
            </div>
          </form>
        ) : (
          <form className="checkout-step" onSubmit={placeOrder} noValidate aria-labelledby="checkout-step-title">
            <h2 id="checkout-step-title" ref={stepTitle} tabIndex={-1} className="sr-only">Step 2 of 3: Payment</h2>
            <section className="checkout-address" aria-labelledby="ship-to-title">
              <h2 id="ship-to-title">Shipping to</h2>
              <p>
                {address.firstName} {address.lastName}<br />
                {address.address}{address.landmark ? `, ${address.landmark}` : ""}<br />
                {address.city}, {address.state} {address.zipCode}, India<br />
                {address.phone} · {address.email}
              </p>
            </section>
            <PaymentOptions method={method} onChange={setMethod} config={config.data} cod={cod} />
            <div className="checkout-step__actions">
              <button type="button" className="button button--secondary" onClick={() => setStep(0)} disabled={busy}>Back</button>
              <button type="submit" className="button" disabled={busy}>{busy ? "Placing Order…" : "Place Order"}</button>
            </div>
          </form>
        )}
        <OrderSummary showLines quote={quote}>
          <CouponField code={couponCode} verdict={quoteCurrent ? quote?.coupon : null} busy={!quoteCurrent}
            onApply={setCouponCode} onRemove={() => setCouponCode("")} />
        </OrderSummary>
      </div>
    </div>
  );
}

export { Checkout as Component };
