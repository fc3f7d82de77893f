// /terms: the terms of sale.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { useShippingFee } from "../../lib/shop.js";

export function Terms() {
  const fee = useShippingFee();
  return (
    <ContentPage title="Terms of Service"
                 description="The terms on which the Bookstore sells and delivers books in India."
                 lead="The rules of buying from the Bookstore, in plain words.">
      <h2>Orders</h2>
      <p>Placing an order is an offer to buy. We confirm it by e-mail; a contract exists once we confirm. We may refuse an order, for example when a book turns out to be out of stock, and refund anything paid.</p>
      <h2>Prices and payment</h2>
      <p>Prices are in Indian rupees (₹). Shipping is a flat {fee} per order. The total at checkout is calculated by our server from current prices; if a price changes while you shop, we show you the new total before you pay. You can pay cash on delivery or online through Razorpay.</p>
      <h2>Delivery</h2>
      <p>We deliver within India only, as described on the <Link to={paths.shipping()}>shipping page</Link>. Delivery times are estimates, not guarantees.</p>
      <h2>Cancellations and returns</h2>
      <p>You can cancel within 1 hour of ordering while the order is pending or processing. Returns and refunds follow our <Link to={paths.returnPolicy()}>return policy</Link>.</p>
      <h2>Your account</h2>
      <p>Keep your password to yourself. You are responsible for orders placed from your account. We may close accounts used for fraud or abuse.</p>
      <h2>Law</h2>
      <p>These terms are governed by the laws of India. Consumer rights under the Consumer Protection Act, 2019 are not affected.</p>
      <h2>Questions</h2>
      <p><Link to={paths.contact()}>Contact us</Link> and we will help.</p>
    </ContentPage>
  );
}

export { Terms as Component };
