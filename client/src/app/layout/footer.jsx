// The site footer: quick links, customer service, the newsletter box and social links.
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { NewsletterForm } from "../../features/newsletter/components/newsletter-form.jsx";
import { SOCIAL_LINKS } from "../../config/site.js";
import { useShippingFee } from "../../lib/shop.js";

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
  return (
    <footer className="footer">
      <div className="container footer__inner">
        <div className="footer__about">
          <p className="footer__brand">Bookstore</p>
          <p>Study and exam books for India. Prices in rupees, flat {fee} shipping, cash on delivery.</p>
          <ul className="footer__social" aria-label="Follow us">
            {SOCIAL_LINKS.map((link) => (
              <li key={link.name}>
                <a href={link.url} rel="noopener noreferrer" target="_blank" aria-label={`${link.name} (opens in a new tab)`}>
                  <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" focusable="false">
                    <path fill="currentColor" d={link.icon} />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
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
