// A kit's page body: its books (each with copies and price), their sum, the kit price and the saving.
// `actions` is the Add to Cart the app composes (a kit knows nothing of the cart).
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { formatRupees } from "../../../lib/money.js";

export function KitDetails({ kit, actions }) {
  const saves = Number(kit.saving) > 0;
  return (
    <div className="kit-details">
      {kit.description && <p className="kit-details__description">{kit.description}</p>}
      <section aria-labelledby="kit-books-title">
        <h2 id="kit-books-title">Books in this kit</h2>
        <ul className="kit-books">
          {kit.books.map((book) => (
            <li key={book._id} className="kit-book">
              {book.thumbnailUrl
                ? <img className="kit-book__cover" src={book.thumbnailUrl} alt="" width="48" height="64" loading="lazy" />
                : <span className="kit-book__cover kit-book__cover--placeholder" aria-hidden="true" />}
              <span className="kit-book__title">
                <Link to={paths.book(book._id)}>{book.title}</Link>
                <span className="kit-book__author">{book.author}</span>
              </span>
              <span className="kit-book__price">
                {book.quantity > 1 ? `${book.quantity} × ` : ""}{formatRupees(book.salePrice)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <dl className="kit-figures">
        <div><dt>Books bought separately</dt><dd>{formatRupees(kit.booksPrice)}</dd></div>
        <div className="kit-figures__price"><dt>Kit price</dt><dd>{formatRupees(kit.price)}</dd></div>
      </dl>
      {saves && <p className="kit-saving">Save {formatRupees(kit.saving)}</p>}
      <p className="kit-stock">{kit.inStock ? (kit.stock <= 5 ? `Only ${kit.stock} left in stock` : "In stock") : "Out of stock"}</p>
      {actions}
    </div>
  );
}
