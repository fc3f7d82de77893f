// A grid of book cards.
import { BookCard } from "./book-card.jsx";

/**
 * renderCard(book, index) may replace the plain card (ranked or dated shelves). The first `priority`
 * covers load at once (they are on screen and likely the largest paint); the rest when scrolled to.
 * headingLevel is 2 where the grid sits right under the page's h1.
 */
export function BookGrid({ books, renderCard, label, priority = 0, headingLevel = 3 }) {
  return (
    <ul className="book-grid" aria-label={label}>
      {books.map((book, index) => (
        <li key={book._id}>{renderCard ? renderCard(book, index) : <BookCard book={book} priority={index < priority} headingLevel={headingLevel} />}</li>
      ))}
    </ul>
  );
}
