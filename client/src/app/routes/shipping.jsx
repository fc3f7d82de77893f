// /shipping: where, how fast and for how much the shop delivers.
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { rupeesInText, useShop } from "../../lib/shop.js";

export function Shipping() {
  const shop = useShop();
  const fee = shop ? rupeesInText(shop.shippingFee) : "";
  const threshold = shop?.freeShippingThreshold;
  return (
    <ContentPage title="Shipping Information"
                 description={`Flat ${fee} shipping per order anywhere in India, packed within 24 hours, delivered in 3–5 business days.`}
                 lead="One flat charge, anywhere in India.">
      <h2>Charges</h2>
      <p>Every order costs <strong>{fee}</strong> to ship, whatever its size or weight. There are no other delivery charges.</p>
      {threshold != null && <p>Shipping is <strong>free</strong> on orders of {rupeesInText(threshold)} or more.</p>}
      <h2>Delivery times</h2>
      <table className="table">
        <caption className="sr-only">Delivery times</caption>
        <thead><tr><th scope="col">Step</th><th scope="col">Time</th></tr></thead>
        <tbody>
          <tr><td>Packing and dispatch</td><td>Within 24 hours of your order (online orders once paid)</td></tr>
          <tr><td>Delivery to most PIN codes</td><td>3–5 business days after dispatch</td></tr>
          <tr><td>Remote and hilly areas</td><td>Up to 7 business days after dispatch</td></tr>
        </tbody>
      </table>
      <h2>Where we deliver</h2>
      <p>We deliver to every state and union territory of India. We do not ship outside India.</p>
      <h2>Cash on delivery</h2>
      <p>Pay the courier in cash or by UPI when your books arrive. The amount is the order total shown at checkout, shipping included.</p>
      <h2>Tracking</h2>
      <p>
        We e-mail you when your order is confirmed, shipped and delivered. Signed-in shoppers also see the status under
        My Orders. Questions? <Link to={paths.contact()}>Contact us</Link>.
      </p>
    </ContentPage>
  );
}

export { Shipping as Component };
