// /new-releases: the newest books by publication date, optionally within one category.
import { usePageMeta } from "../../lib/use-page-meta.js";
import { getNewReleases } from "../../features/catalogue/api.js";
import { BookCard } from "../../features/catalogue/components/book-card.jsx";
import { BookActions } from "../components/book-actions.jsx";
import { formatDate } from "../../features/catalogue/components/book-details.jsx";
import { ShelfPage } from "../../features/catalogue/components/shelf-page.jsx";

function DatedCard(book) {
  return (
    <BookCard
      book={book}
      headingLevel={2}
      badge={<span className="book-card__badge">NEW</span>}
      extra={book.publicationDate && (
        <p className="book-card__meta">
          Published <time dateTime={book.publicationDate}>{formatDate(book.publicationDate)}</time>
        </p>
      )}
      footer={<BookActions book={book} compact />}
    />
  );
}

export function NewReleases() {
  usePageMeta("New Releases", "The newest school, university and competitive-exam books, latest editions first.");
  return (
    <ShelfPage
      title="New Releases"
      lead="The latest editions and newest titles, most recent first."
      fetchShelf={getNewReleases}
      renderCard={DatedCard}
      failure="Failed to load new releases."
    />
  );
}

export { NewReleases as Component };
