// /bestsellers: books ranked by copies sold, optionally within one category.
import { usePageMeta } from "../../lib/use-page-meta.js";
import { getBestsellers } from "../../features/catalogue/api.js";
import { BookCard } from "../../features/catalogue/components/book-card.jsx";
import { BookActions } from "../components/book-actions.jsx";
import { ShelfPage } from "../../features/catalogue/components/shelf-page.jsx";

function RankedCard(book, index) {
  return (
    <BookCard
      book={book}
      headingLevel={2}
      badge={<span className="book-card__badge book-card__badge--rank"><span className="sr-only">Rank </span>#{index + 1}</span>}
      extra={<p className="book-card__meta">{(book.copiesSold ?? 0).toLocaleString("en-IN")} sold</p>}
      footer={<BookActions book={book} compact />}
    />
  );
}

export function Bestsellers() {
  usePageMeta("Best Sellers", "The study and exam books shoppers across India buy most, ranked by copies sold.");
  return (
    <ShelfPage
      title="Best Sellers"
      lead="The books shoppers buy most, ranked by copies sold."
      fetchShelf={getBestsellers}
      renderCard={RankedCard}
      failure="Failed to load best sellers."
    />
  );
}

export { Bestsellers as Component };
