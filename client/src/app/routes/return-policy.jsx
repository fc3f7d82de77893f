// /return-policy: returns, replacements and refunds.
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";

export function ReturnPolicy() {
  return (
    <ContentPage title="Return Policy"
                 description="Return unused books within 14 days of delivery. Damaged or wrong books replaced free. Refunds in 3–5 business days."
                 lead="Changed your mind, or something went wrong? Here is how returns and refunds work.">
      <h2>Returns</h2>
      <ul className="bullets">
        <li>You can return a book within <strong>14 days of delivery</strong>.</li>
        <li>It must be unused, unmarked and in its original condition, with any CD or access card still sealed.</li>
        <li>E-Book and Audiobook editions cannot be returned once their access has been sent to you.</li>
      </ul>
      <h2>Damaged or wrong books</h2>
      <p>
        If a book arrives damaged, misprinted or is not the one you ordered, tell us within <strong>48 hours of
        delivery</strong> with a photo. We send a replacement at no cost, or refund it in full if it is out of stock.
      </p>
      <h2>How to return</h2>
      <ol className="bullets">
        <li>Send us a message through the <Link to={paths.contact()}>contact page</Link> with the subject “Returns &amp; Refunds” and your order number.</li>
        <li>We reply within one working day with the pick-up or return address.</li>
        <li>Once the book reaches us and passes a check, we start the refund.</li>
      </ol>
      <h2>Refunds</h2>
      <ul className="bullets">
        <li>Online payments are refunded to the same card, UPI or bank account within <strong>3–5 business days</strong>.</li>
        <li>Cash-on-delivery orders are refunded by bank transfer or UPI; the shipping charge is deducted.</li>
        <li>A cancelled order (within 1 hour of placing it) is refunded in full, shipping included.</li>
      </ul>
    </ContentPage>
  );
}

export { ReturnPolicy as Component };
