// One book in a grid: cover (or a placeholder), title, author and price.
import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../config/paths.js";
import { Price } from "../../../components/ui/price.jsx";

function Cover({ src, title }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className="book-card__cover book-card__cover--placeholder" role="img" aria-label={`No cover image for ${title}`}>
        <span aria-hidden="true">{title.slice(0, 1)}</span>
      </div>
    );
  }
  return (
    <img
      className="book-card__cover"
      src={src}
      alt={`Cover of ${title}`}
      width="300"
      height="400"
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

export function BookCard({ book }) {
  return (
    <article className="book-card">
      <Cover src={book.thumbnailUrl} title={book.title} />
      <div className="book-card__body">
        <h3 className="book-card__title">
          <Link to={paths.book(book._id)}>{book.title}</Link>
        </h3>
        <p className="book-card__author">{book.author}</p>
        <Price price={book.price} discountedPrice={book.discountedPrice} />
        {book.stock === 0 && <p className="book-card__stock">Out of stock</p>}
      </div>
    </article>
  );
}
