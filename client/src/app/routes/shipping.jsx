// /shipping: where, how fast and for how much the shop delivers.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { rupeesInText, useShop } from "../../lib/shop.js";

// The shopper's names of the delivery zones (seen from the shop's dispatch PIN), for zones with their own fee.
const ZONE_NAMES = {
  sameCity: "the city we ship from", sameState: "the rest of the state we ship from", metro: "other metro cities",
  restOfIndia: "the rest of India", special: "the north-east, Jammu & Kashmir, Ladakh and the islands",
};

export function Shipping() {
  const shop = useShop();
  const fee = shop ? rupeesInText(shop.shippingFee) : "";
  const threshold = shop?.freeShippingThreshold;
  // Zones with a fee of their own (an admin's setting); without any, one flat charge everywhere.
  const zoneFees = Object.entries(shop?.zoneShippingFees ?? {}).filter(([zone]) => ZONE_NAMES[zone]);
  return (
    <ContentPage title="Shipping Information"
                 description={`${zoneFees.length > 0 ? `${fee} shipping per order (more or less to some areas)`
                   : `Flat ${fee} shipping per order`} anywhere in India, packed within 24 hours, delivered in 3–5 business days.`}
                 lead={zoneFees.length > 0 ? "One charge per order, by where it goes in India."
                   : "One flat charge, anywhere in India."}>
      <h2>Charges</h2>
      {zoneFees.length > 0 ? (
        <>
          <p>An order costs <strong>{fee}</strong> to ship, whatever its size or weight, except to these areas:</p>
          <ul>
            {zoneFees.map(([zone, amount]) => <li key={zone}>{ZONE_NAMES[zone]}: <strong>{rupeesInText(amount)}</strong></li>)}
          </ul>
          <p>The cart and checkout show the charge for your PIN code. There are no other delivery charges.</p>
        </>
      ) : (
        <p>Every order costs <strong>{fee}</strong> to ship, whatever its size or weight. There are no other delivery charges.</p>
      )}
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
