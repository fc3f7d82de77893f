// One cart line: cover, title, unit price, quantity stepper, line total and Remove.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { Price } from "../../../components/ui/price.jsx";
import { formatRupees } from "../../../lib/money.js";
import { isKitItem } from "../../../lib/kit-lines.js";
import { unitPaise } from "../cart-reducer.js";
import { useCart } from "../cart-context.jsx";

export function CartLine({ line }) {
  const { setQuantity, remove, maxCopies } = useCart();
  const { book, quantity } = line;
  const unit = unitPaise(book);
  const atStock = (Number.isInteger(book.stock) && quantity >= book.stock) || quantity >= maxCopies;
  return (
    <li className="cart-line">
      {book.thumbnailUrl || book.imageUrl
        ? <img className="cart-line__cover" src={book.thumbnailUrl || book.imageUrl} alt="" width="64" height="85" loading="lazy" />
        : <div className="cart-line__cover cart-line__cover--placeholder" aria-hidden="true">{book.title.slice(0, 1)}</div>}
      <div className="cart-line__info">
        <h3 className="cart-line__title">
          {/* A kit's slug is not stored with the cart: its link comes with the kit's re-read (use-kit-refresh.js). */}
          {isKitItem(book) && !book.slug ? book.title
            : <Link to={isKitItem(book) ? paths.kit(book.slug) : paths.book(book._id)}>{book.title}</Link>}
        </h3>
        {book.author && <p className="cart-line__author">{book.author}</p>}
        <p className="cart-line__unit">
          <Price as="span" price={book.price} discountedPrice={book.discountedPrice} /> <span>each</span>
        </p>
        {Number.isInteger(book.stock) && book.stock <= 5 && (
          <p className="cart-line__stock">Only {book.stock} left in stock</p>
        )}
      </div>
      <div className="cart-line__controls">
        <div className="stepper" role="group" aria-label={`Quantity of ${book.title}`}>
          <button type="button" className="stepper__button" onClick={() => setQuantity(book._id, quantity - 1)}
            disabled={quantity <= 1} aria-label={`Decrease quantity of ${book.title}`}>−</button>
          <output className="stepper__value" aria-live="polite" aria-label={`Quantity of ${book.title}`}>{quantity}</output>
          <button type="button" className="stepper__button" onClick={() => setQuantity(book._id, quantity + 1)}
            disabled={atStock} aria-label={`Increase quantity of ${book.title}`}>+</button>
        </div>
        <p className="cart-line__total">{formatRupees((unit * quantity) / 100)}</p>
        <button type="button" className="link-button cart-line__remove" onClick={() => remove(book._id)}
          aria-label={`Remove ${book.title} from cart`}>Remove</button>
      </div>
    </li>
  );
}
