// Contact (/contact): the form of product §11.2, the shop's contact details and a short FAQ.
import { useState } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { useShippingFee, useShop } from "../../lib/shop.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Field } from "../../components/ui/field.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { sendContactMessage } from "../../features/contact/api.js";

const SUBJECTS = [
  ["general", "General Inquiry"],
  ["order", "Order Status"],
  ["returns", "Returns & Refunds"],
  ["technical", "Technical Support"],
  ["partnership", "Partnership"],
  ["other", "Other"],
];

const faq = (fee) => [
  ["How long does delivery take?", `Orders are processed within 24 hours and delivered in 3-5 business days across India, for a flat ${fee} shipping charge.`],
  ["Can I pay cash on delivery?", "Yes. Choose Cash on Delivery at checkout and pay when your books arrive. You can also pay online by card, UPI, net banking or wallet."],
  ["Can I cancel my order?", "You can cancel a pending order from My Orders within 1 hour of placing it. Online payments are refunded in 3-5 business days."],
  ["What if a book arrives damaged?", "Within 7 days of delivery, open the order and choose Request a return: we refund damaged, defective, wrong or missing books."],
];

const EMPTY = { name: "", email: "", phone: "", subject: "", message: "" };

export function Contact() {
  usePageMeta("Contact Us", "Questions about an order, a return or a book? Write to the Bookstore team.");
  const fee = useShippingFee();
  // The shop's contact details as an admin set them (GET /api/shop); an empty one is not shown.
  const contact = useShop()?.contact ?? {};
  const hasContact = Boolean(contact.email || contact.phone || contact.hours || contact.address);
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState({});
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

  async function submit(event) {
    event.preventDefault();
    const local = {};
    if (!fields.name.trim()) local.name = "Full name is required.";
    if (!fields.email.trim()) local.email = "E-mail is required.";
    if (!fields.subject) local.subject = "Subject is required.";
    if (!fields.message.trim()) local.message = "Message is required.";
    setErrors(local);
    setResult(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await sendContactMessage({ ...fields, name: fields.name.trim(), email: fields.email.trim(), phone: fields.phone.trim() });
      setResult({ tone: "success", text: "Thank you for your message! We will get back to you soon." });
      setFields(EMPTY);
    } catch (error) {
      setErrors(Object.fromEntries(Object.entries(error.errors ?? {}).map(([name, list]) => [name, [].concat(list)[0]])));
      setResult({ tone: "error", text: error.message || "Failed to send message. Please try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="container page">
      <h1>Contact Us</h1>
      <p>Questions about an order, a return or a book? Send us a message and we will reply within one working day.</p>
      <div className="contact-layout">
        <form className="form card" onSubmit={submit} noValidate aria-label="Contact form">
          {result && <Banner tone={result.tone} onDismiss={() => setResult(null)}>{result.text}</Banner>}
          <div className="form__row">
            <Field label="Full Name" error={errors.name} required>
              <input name="name" autoComplete="name" value={fields.name} onChange={change} />
            </Field>
            <Field label="Email" error={errors.email} required>
              <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
            </Field>
          </div>
          <div className="form__row">
            <Field label="Phone (optional)" error={errors.phone}>
              <input name="phone" type="tel" autoComplete="tel" value={fields.phone} onChange={change} />
            </Field>
            <Field label="Subject" error={errors.subject} required>
              <select name="subject" value={fields.subject} onChange={change}>
                <option value="">Select a subject</option>
                {SUBJECTS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
            </Field>
          </div>
          <Field label="Message" error={errors.message} required>
            <textarea name="message" rows="6" value={fields.message} onChange={change} />
          </Field>
          <button type="submit" className="button form__submit" disabled={busy}>{busy ? "Sending…" : "Send Message"}</button>
        </form>
        <aside className="card" aria-labelledby="reach-us">
          <h2 id="reach-us">Reach Us</h2>
          {hasContact && <dl className="contact-details">
            {contact.email && <div><dt>Email</dt><dd><a href={`mailto:${contact.email}`}>{contact.email}</a></dd></div>}
            {contact.phone && (
              <div><dt>Phone</dt><dd><a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a></dd></div>
            )}
            {contact.hours && <div><dt>Hours</dt><dd>{contact.hours}</dd></div>}
            {contact.address && <div><dt>Address</dt><dd>{contact.address}</dd></div>}
          </dl>}
          <p>Already ordered? <Link to={paths.orderLookup()}>Track your order</Link>.</p>
        </aside>
      </div>
      <section className="faq-list" aria-labelledby="contact-faq">
        <h2 id="contact-faq">Frequently Asked Questions</h2>
        {faq(fee).map(([question, answer]) => (
          <div key={question}>
            <h3>{question}</h3>
            <p>{answer}</p>
          </div>
        ))}
        <p><Link to={paths.faq()}>More answers in our FAQ</Link></p>
      </section>
    </div>
  );
}

export { Contact as Component };
