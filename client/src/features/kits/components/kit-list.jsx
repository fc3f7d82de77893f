// Kits as a list of cards (an exam's page): name, book count, kit price and saving.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { formatRupees } from "../../../lib/money.js";

export function KitList({ kits }) {
  return (
    <ul className="kit-list">
      {kits.map((kit) => (
        <li key={kit._id} className="kit-card">
          <h3 className="kit-card__name"><Link to={paths.kit(kit.slug)}>{kit.name}</Link></h3>
          <p className="kit-card__books">{kit.books.length} {kit.books.length === 1 ? "book" : "books"}</p>
          <p className="kit-card__price">
            {formatRupees(kit.price)}
            {Number(kit.saving) > 0 && <span className="kit-card__saving"> · Save {formatRupees(kit.saving)}</span>}
          </p>
        </li>
      ))}
    </ul>
  );
}
