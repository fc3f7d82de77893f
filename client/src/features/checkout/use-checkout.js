// Placing the order and paying for it: the checkout screen's one use case, kept out of its markup.
import { useCallback, useRef, useState } from "react";
import * as api from "./api.js";
import { rememberOrder } from "./last-order.js";
import { loadCheckoutScript, openCheckout } from "./razorpay.js";
import { orderItem } from "../../lib/kit-lines.js";

const SHOP_NAME = "Bookstore";
const THEME_COLOUR = "#1b5e20"; // the shop's dark green
export const COD_CONFIRMATION_MS = 2000; // product §5.1: the cash-on-delivery confirmation is shown for 2 s

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * What POST /api/orders takes: the lines by id and quantity, the address, the coupon and the total seen;
 * the address may carry confirmedStateMismatch (the shopper confirmed a state other than their PIN's).
 */
function orderBody(lines, { confirmedStateMismatch, buyerGstin, digitalOnly, ...address }, method, totalPrice, couponCode) {
  // E-books and audiobooks only (product §7.11): the contact, no street.
  const fields = digitalOnly ? ["firstName", "lastName", "email", "phone"] : Object.keys(address);
  return {
    orderItems: lines.map(orderItem),
    shippingAddress: { ...Object.fromEntries(fields.map((key) => [key, String(address[key] ?? "").trim()])), country: "India" },
    paymentMethod: method,
    totalPrice,
    ...(couponCode && { couponCode }),
    ...(confirmedStateMismatch && { confirmedStateMismatch: true }),
    ...(buyerGstin?.trim() && { buyerGstin: buyerGstin.replace(/\s/g, "").toUpperCase() }),
  };
}

/**
 * place(address, method, config, {totalPrice, couponCode}) runs the whole checkout; totalPrice is the
 * server's quote the shopper saw (the cart's own sum without one). Reports through `notice`
 * ({tone, text}) and resolves to the final order, or null when it stopped (an error or a closed
 * payment window; an online order then stays reserved and the next place() pays for it).
 * `cart` is the shopper's cart (the cart feature's useCart(), handed over by the checkout screen).
 */
export function useCheckout(cart) {
  const [notice, setNotice] = useState(null);
  const [busy, setBusy] = useState(false);
  // One attempt = one request body: a retry of the same body reuses its Idempotency-Key and order.
  const attempt = useRef({ json: null, key: null, order: null });

  const placeOnce = useCallback(async (body) => {
    const json = JSON.stringify(body);
    if (attempt.current.json !== json) attempt.current = { json, key: newKey(), order: null };
    if (!attempt.current.order) attempt.current.order = await api.placeOrder(body, attempt.current.key);
    return attempt.current.order;
  }, []);

  const payOnline = useCallback(async (order, address, config) => {
    if (!config?.checkoutUrl) throw new Error("Failed to load payment gateway");
    await loadCheckoutScript(config.checkoutUrl);
    const { key_id: key, order: razorpayOrder } = await api.createPaymentOrder(order._id);
    const fields = await openCheckout({
      key,
      amount: razorpayOrder.amount,
      currency: razorpayOrder.currency,
      name: SHOP_NAME,
      description: "Book Purchase",
      order_id: razorpayOrder.id,
      prefill: { name: `${address.firstName} ${address.lastName}`.trim(), email: address.email, contact: address.phone },
      notes: {
        address: [address.address, address.landmark, address.city, address.state, address.zipCode].filter(Boolean).join(", ").slice(0, 250),
        orderId: order.orderNumber,
      },
      theme: { color: THEME_COLOUR },
    }, { onFailure: (text) => setNotice({ tone: "error", text }) });
    if (!fields) return null;
    try {
      return await api.verifyPayment(fields);
    } catch {
      throw new Error("Payment verification failed");
    }
  }, []);

  const place = useCallback(async (address, method, config, { totalPrice, couponCode } = {}) => {
    setNotice(null);
    if (!method) {
      setNotice({ tone: "error", text: "Please select a payment method." });
      return null;
    }
    if (method !== "cod" && method !== "online") {
      setNotice({ tone: "error", text: "Invalid payment method" });
      return null;
    }
    if (cart.lines.length === 0) {
      setNotice({ tone: "error", text: "Your cart is empty!" });
      return null;
    }
    if (cart.lines.length > cart.maxLines) {
      setNotice({ tone: "error", text: "Cart has too many items. Please reduce the number of items." });
      return null;
    }
    setBusy(true);
    let order;
    try {
      order = await placeOnce(orderBody(cart.lines, address, method, totalPrice ?? cart.itemsTotalPaise / 100, couponCode));
    } catch (error) {
      setBusy(false);
      if (error.status === 409 && (error.data?.current || error.data?.bookId)) {
        // Prices or stock moved: show the shopper the new figures before they agree to them.
        await cart.refresh().catch(() => {});
        setNotice({ tone: "error", text: `${error.message} Your cart has been updated below; check it and place the order again.` });
      } else {
        setNotice({ tone: "error", text: `Order placement failed: ${error.message || "Failed to create order"}` });
      }
      return null;
    }
    rememberOrder({ ...order, email: address.email });
    if (method === "cod") {
      setNotice({ tone: "success", text: `Order ${order.orderNumber} placed! Taking you to your confirmation…` });
      await new Promise((resolve) => setTimeout(resolve, COD_CONFIRMATION_MS));
      return order;
    }
    try {
      const paid = await payOnline(order, address, config);
      if (!paid) {
        setNotice({ tone: "warning", text: `Payment was not completed. Order ${order.orderNumber} is reserved for you for 30 minutes: choose Place Order to pay for it.` });
        setBusy(false);
        return null;
      }
      rememberOrder({ ...paid, email: address.email });
      return paid;
    } catch (error) {
      setNotice({ tone: "error", text: error.message.startsWith("Payment") ? error.message : `Payment failed: ${error.message}` });
      setBusy(false);
      return null;
    }
  }, [cart, placeOnce, payOnline]);

  return { place, notice, setNotice, busy };
}
