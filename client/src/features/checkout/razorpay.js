// Razorpay Checkout in the browser: load its script once, open it, and wait for the outcome.

const loading = new Map();

/** Load Razorpay's script from url (the server says which); resolves when window.Razorpay exists. */
export function loadCheckoutScript(url) {
  if (window.Razorpay) return Promise.resolve();
  if (!loading.has(url)) {
    loading.set(url, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.onload = () => (window.Razorpay ? resolve() : reject(new Error("Failed to load payment gateway")));
      script.onerror = () => {
        loading.delete(url);
        script.remove();
        reject(new Error("Failed to load payment gateway"));
      };
      document.head.append(script);
    }));
  }
  return loading.get(url);
}

/**
 * Open Checkout with options; resolves to the signed fields on success, or null when the shopper
 * closes it. A failed attempt leaves Checkout open for another try and is reported to
 * onFailure("Payment failed: {provider description}").
 */
export function openCheckout(options, { onFailure } = {}) {
  if (!window.Razorpay) return Promise.reject(new Error("Payment gateway is not loaded. Please try again."));
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value) => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    const checkout = new window.Razorpay({
      ...options,
      handler: (response) => settle({
        razorpay_order_id: response.razorpay_order_id,
        razorpay_payment_id: response.razorpay_payment_id,
        razorpay_signature: response.razorpay_signature,
      }),
      modal: { ...options.modal, ondismiss: () => settle(null) },
    });
    checkout.on("payment.failed", (response) =>
      onFailure?.(`Payment failed: ${response?.error?.description || "the payment was declined"}`));
    checkout.open();
  });
}
