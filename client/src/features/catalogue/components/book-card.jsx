// One book in a grid: cover, title, author and price; a plain click opens the detail modal.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { Price } from "../../../components/ui/price.jsx";
import { useBookDetail } from "../book-detail-context.jsx";
import { BookCover } from "./book-cover.jsx";
import { Stars } from "../../../components/ui/stars.jsx";

/** `badge`, `extra` and `footer` let shelves add a rank, a NEW label, a date, sales or buttons. */
export function BookCard({ book, badge, extra, footer, headingLevel = 3, priority = false }) {
  const detail = useBookDetail();
  const Heading = `h${headingLevel}`;

  function open(event) {
    // Modified clicks keep their link meaning (new tab, new window); a plain click opens the modal.
    if (!detail || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey) return;
    event.preventDefault();
    detail.openBook(book);
  }

  return (
    <article className="book-card">
      {badge}
      <BookCover book={book} className="book-card__cover" eager={priority} />
      <div className="book-card__body">
        <Heading className="book-card__title">
          <Link to={paths.book(book._id)} onClick={open} aria-haspopup={detail ? "dialog" : undefined}>
            {book.title}
          </Link>
        </Heading>
        <p className="book-card__author">{book.author}</p>
        {book.ratingCount > 0 && <Stars rating={book.rating} count={book.ratingCount} />}
        {extra}
        <Price price={book.price} discountedPrice={book.discountedPrice} />
        {book.stock === 0 && <p className="book-card__stock">Out of stock</p>}
        {footer && <div className="book-card__footer">{footer}</div>}
      </div>
    </article>
  );
}
