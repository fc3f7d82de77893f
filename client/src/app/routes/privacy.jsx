// /privacy: what personal data the shop keeps, why, and the shopper's rights.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { ContentPage } from "../../components/ui/content-page.jsx";

export function Privacy() {
  return (
    <ContentPage title="Privacy Policy"
                 description="What personal data the Bookstore collects, why, how long it keeps it, and your rights."
                 lead="We collect only what we need to sell and deliver your books.">
      <h2>What we collect</h2>
      <ul className="bullets">
        <li><strong>Account:</strong> your name, e-mail address, phone number and a securely hashed password.</li>
        <li><strong>Orders:</strong> the delivery address, phone and e-mail you enter at checkout, and what you bought.</li>
        <li><strong>Payments:</strong> online payments are handled by Razorpay. We receive only a payment reference and its status, never your card, UPI or bank details.</li>
        <li><strong>Messages and newsletter:</strong> what you send through the contact form, and your e-mail address if you subscribe.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>To deliver your orders, take payment, tell you about your order’s status, answer your messages and, only if you confirmed your subscription, send our newsletter. We do not sell or rent your data to anyone.</p>
      <h2>Who we share it with</h2>
      <p>The courier receives your name, address and phone to deliver. Razorpay processes online payments. Our e-mail provider sends our messages. Each receives only what it needs.</p>
      <h2>How long we keep it</h2>
      <p>Order records are kept as long as the law requires for accounts and taxes. If you are signed in, your cart and saved addresses are kept with your account until you change them.</p>
      <p>
        You can close your account at any time from your profile: we erase your name, e-mail address, phone number,
        saved addresses, cart, wishlist, reviews, book alerts and newsletter subscription at once, and sign out every device. Past
        orders keep their amounts and place of delivery for our accounts, without your name or contact details.
        Every newsletter has a one-click unsubscribe link.
      </p>
      <h2>Your rights</h2>
      <p>
        Under the Digital Personal Data Protection Act, 2023 you may ask to see, correct or erase your personal data,
        and withdraw consent you gave. Write to us through the <Link to={paths.contact()}>contact page</Link>; we answer within 30 days.
      </p>
      <h2>Cookies and local storage</h2>
      <p>See our <Link to={paths.cookies()}>cookie policy</Link>.</p>
    </ContentPage>
  );
}

export { Privacy as Component };
