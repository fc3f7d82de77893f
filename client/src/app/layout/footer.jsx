// The site footer: quick links, customer service, the newsletter box, and the contact details and social links
// an admin set in the shop settings (GET /api/shop; none shown while empty).
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { NewsletterForm } from "../../features/newsletter/components/newsletter-form.jsx";
import { Icon } from "../../components/ui/icon.jsx";
import { useShippingFee, useShop } from "../../lib/shop.js";

const SOCIAL_NAMES = { facebook: "Facebook", instagram: "Instagram", x: "X", youtube: "YouTube" };

const GROUPS = [
  {
    title: "Quick Links",
    links: [
      { label: "All Books", to: paths.books() },
      { label: "Categories", to: paths.categories() },
      { label: "Best Sellers", to: paths.bestsellers() },
      { label: "New Releases", to: paths.newReleases() },
      { label: "About Us", to: paths.about() },
    ],
  },
  {
    title: "Customer Service",
    links: [
      { label: "Contact Us", to: paths.contact() },
      { label: "Shipping Information", to: paths.shipping() },
      { label: "Return Policy", to: paths.returnPolicy() },
      { label: "FAQ", to: paths.faq() },
      { label: "My Orders", to: paths.orders() },
    ],
  },
];

export function Footer() {
  const fee = useShippingFee();
  const shop = useShop();
  const contact = shop?.contact ?? {};
  const social = Object.entries(shop?.socialLinks ?? {}).filter(([platform, url]) => SOCIAL_NAMES[platform] && url);
  return (
    <footer className="footer">
      <div className="container footer__inner">
        <div className="footer__about">
          <p className="footer__brand">Bookstore</p>
          <p>Study and exam books for India. Prices in rupees, flat {fee} shipping, cash on delivery.</p>
          {(contact.email || contact.phone) && (
            <ul className="footer__contact" aria-label="Contact us">
              {contact.email && <li><a href={`mailto:${contact.email}`}>{contact.email}</a></li>}
              {contact.phone && <li><a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a></li>}
            </ul>
          )}
          {social.length > 0 && (
            <ul className="footer__social" aria-label="Follow us">
              {social.map(([platform, url]) => (
                <li key={platform}>
                  <a href={url} rel="noopener noreferrer" target="_blank" aria-label={`${SOCIAL_NAMES[platform]} (opens in a new tab)`}>
                    <Icon name={platform} size={20} />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        {GROUPS.map((group) => (
          <nav key={group.title} className="footer__group" aria-label={group.title}>
            <h2>{group.title}</h2>
            <ul>
              {group.links.map((link) => (
                <li key={link.label}><Link to={link.to}>{link.label}</Link></li>
              ))}
            </ul>
          </nav>
        ))}
        <NewsletterForm tone="dark" title="Newsletter"
                        lead="New editions and exam-season offers, at most twice a month." />
      </div>
      <div className="container footer__legal">
        <p>© {new Date().getFullYear()} Bookstore</p>
        <p>
          <Link to={paths.privacy()}>Privacy Policy</Link> · <Link to={paths.terms()}>Terms of Service</Link> ·{" "}
          <Link to={paths.cookies()}>Cookie Policy</Link>
        </p>
      </div>
    </footer>
  );
}
