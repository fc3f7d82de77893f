// Cart, checkout, the order confirmation and the guest order look-up.
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Cart } from "../routes/cart.jsx";
export { Component as Checkout } from "../routes/checkout.jsx";
export { Component as OrderSuccess } from "../routes/order-success.jsx";
export { Component as OrderLookup } from "../routes/order-lookup.jsx";
export { default as CartSync } from "../cart-sync.jsx"; // signed-in shoppers only (app/providers.jsx)
