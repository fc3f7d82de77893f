// /return-policy: the returns and refunds rules of product §7.10, exactly as the shop applies them.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { useShippingFee } from "../../lib/shop.js";

export function ReturnPolicy() {
  const fee = useShippingFee();
  return (
    <ContentPage title="Return Policy"
                 description="Return a damaged, defective, wrong or missing book within 7 days of delivery. Online payments refunded through Razorpay; cash on delivery to your UPI ID or bank account, less the shipping fee."
                 lead="If a book arrives damaged, defective or wrong, or is missing from your parcel, we take it back and refund you.">
      <h2>What can be returned</h2>
      <ul className="bullets">
        <li>You can ask for a return within <strong>7 days of delivery</strong>.</li>
        <li>Returns are accepted for <strong>damaged, defective, wrong or missing</strong> items only.</li>
        <li>You choose the books and how many copies of each, with the reason, and may add up to 3 photos.</li>
        <li>Books that came in a kit are returned one book at a time, like any other; an e-book or audiobook in a kit is a download and is not returned.</li>
      </ul>
      <h2>How to return</h2>
      <ol className="bullets">
        <li>Open your order under <Link to={paths.orders()}>My Orders</Link>, or from the link in any order e-mail (no sign-in needed), and choose <strong>Request a return</strong>.</li>
        <li>We look at your request and e-mail you: approved, with a courier pickup from your address or our address to send the books to, or not accepted, with the reason.</li>
        <li>When the books reach us, we e-mail you and make the refund.</li>
      </ol>
      <h2>Refunds</h2>
      <ul className="bullets">
        <li>The refund is the price you paid for the returned books (after any coupon). A book from a kit is refunded at its share of the kit price, in proportion to the books' own prices when you bought the kit.</li>
        <li><strong>Online payments</strong> are refunded through Razorpay to the card, UPI or account you paid with; it reaches you in 3–5 business days.</li>
        <li><strong>Cash-on-delivery</strong> orders are refunded to the UPI ID or bank account (account number, IFSC and holder's name) you give with the return, <strong>less the {fee} shipping</strong> of the order, deducted once per order. We keep those details for this refund only and erase them once it is paid.</li>
        <li>Each step is e-mailed to you and shown on your order page.</li>
      </ul>
      <p>
        A cancelled order (within 1 hour of placing it) is not a return: it is refunded in full. Questions? <Link to={paths.contact()}>Contact us</Link>.
      </p>
    </ContentPage>
  );
}

export { ReturnPolicy as Component };
