// /faq: twelve answers, one open at a time.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { Accordion } from "../../components/ui/accordion.jsx";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { useShippingFee } from "../../lib/shop.js";

function ShippingAnswer() {
  return <p>A flat {useShippingFee()} per order, however many books it holds, to any address in India.</p>;
}

const FAQ = [
  {
    question: "How much does shipping cost?",
    answer: <ShippingAnswer />,
  },
  {
    question: "How long does delivery take?",
    answer: <p>We pack orders within 24 hours. Delivery takes 3–5 business days to most PIN codes; remote areas can take a little longer.</p>,
  },
  {
    question: "How can I pay?",
    answer: <p>Cash on delivery, or online with a card, UPI, net banking or a wallet through Razorpay. We never see or store your card details.</p>,
  },
  {
    question: "Do I need an account to order?",
    answer: <p>No. You can check out as a guest. With an account you can see your orders, cancel them and keep a wishlist.</p>,
  },
  {
    question: "Can I cancel my order?",
    answer: <p>Yes, within 1 hour of placing it while it is pending or processing: open <Link to={paths.orders()}>My Orders</Link> and choose Cancel. Online payments are refunded in full.</p>,
  },
  {
    question: "How do I track my order?",
    answer: <p>Signed-in shoppers see every order and its status under My Orders. We also e-mail you whenever the status changes.</p>,
  },
  {
    question: "What if a book arrives damaged or wrong?",
    answer: <p>Within 7 days of delivery, open the order and choose Request a return, with the reason and a photo if you can. We refund damaged, defective, wrong or missing books.</p>,
  },
  {
    question: "What is your return policy?",
    answer: <p>Damaged, defective, wrong or missing items can be returned within 7 days of delivery. See the <Link to={paths.returnPolicy()}>return policy</Link> for the details.</p>,
  },
  {
    question: "When will I get my refund?",
    answer: <p>Once the returned books reach us: online payments are refunded through Razorpay to the same account (3–5 business days); cash-on-delivery orders to the UPI ID or bank account you give, less the order's shipping charge.</p>,
  },
  {
    question: "Are the books new and original?",
    answer: <p>Yes. Every book is a new copy from the publisher or its authorised distributor, with the edition and year shown on its page.</p>,
  },
  {
    question: "Do you sell books in Hindi?",
    answer: <p>Yes. Many school and competitive-exam titles come in Hindi or in both English and Hindi: use the Language filter on the <Link to={paths.books({ language: "Hindi" })}>books page</Link>.</p>,
  },
  {
    question: "How do I reach customer support?",
    answer: <p>Write to us through the <Link to={paths.contact()}>contact page</Link>. We answer from 9 AM to 6 PM IST, Monday to Saturday, usually within one working day.</p>,
  },
];

export function Faq() {
  return (
    <ContentPage title="Frequently Asked Questions"
                 description="Answers about shipping, payment, cancellations, returns and refunds at the Bookstore."
                 lead="Quick answers about ordering, delivery, payment and returns.">
      <Accordion items={FAQ} />
    </ContentPage>
  );
}

export { Faq as Component };
