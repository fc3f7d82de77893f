// A grid of book cards.
import { BookCard } from "./book-card.jsx";

/** renderCard(book, index) may replace the plain card (ranked or dated shelves). */
export function BookGrid({ books, renderCard, label }) {
  return (
    <ul className="book-grid" aria-label={label}>
      {books.map((book, index) => (
        <li key={book._id}>{renderCard ? renderCard(book, index) : <BookCard book={book} />}</li>
      ))}
    </ul>
  );
}
