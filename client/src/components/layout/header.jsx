// The site header: the shop's name and the main navigation.
import { Link, NavLink } from "react-router-dom";
import { paths } from "../../config/paths.js";

const NAV = [
  { label: "Home", to: paths.home(), end: true },
  { label: "Books", to: paths.books() },
  { label: "About", to: paths.about() },
  { label: "Contact", to: paths.contact() },
];

export function Header() {
  return (
    <header className="header">
      <div className="container header__inner">
        <Link className="header__brand" to={paths.home()}>
          <span className="header__logo" aria-hidden="true">B</span>
          Bookstore
        </Link>
        <nav className="header__nav" aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.label}>
                <NavLink to={item.to} end={item.end}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
