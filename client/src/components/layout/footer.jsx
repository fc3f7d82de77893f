// The site footer: shop and help links, and the shop's promises in one line.
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";

const GROUPS = [
  {
    title: "Shop",
    links: [
      { label: "All books", to: paths.books() },
      { label: "Categories", to: paths.categories() },
      { label: "Best sellers", to: paths.bestsellers() },
      { label: "New releases", to: paths.newReleases() },
    ],
  },
  {
    title: "Help",
    links: [
      { label: "Contact us", to: paths.contact() },
      { label: "Shipping", to: paths.shipping() },
      { label: "Returns", to: paths.returnPolicy() },
      { label: "FAQ", to: paths.faq() },
    ],
  },
];

export function Footer() {
  return (
    <footer className="footer">
      <div className="container footer__inner">
        <div className="footer__about">
          <p className="footer__brand">Bookstore</p>
          <p>Study and exam books for India. Prices in rupees, flat ₹40 shipping.</p>
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
      </div>
      <div className="container footer__legal">
        <p>© {new Date().getFullYear()} Bookstore</p>
        <p><Link to={paths.privacy()}>Privacy</Link> · <Link to={paths.terms()}>Terms</Link></p>
      </div>
    </footer>
  );
}
