// The home page's Featured Books section, and a few of their covers for the hero.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { getFeaturedBooks } from "../api.js";
import { useInitialData } from "../initial-data.js";
import { BookCover } from "./book-cover.jsx";
import { BookGrid } from "./book-grid.jsx";

/** The featured books (embedded in the home page by the server, else asked for): one request for the hero and the shelf. */
export function useFeaturedBooks() {
  const initial = useInitialData("initial-featured");
  return useRequest(getFeaturedBooks, initial);
}

/** A few featured covers beside the hero's slides (wide screens only: CSS hides them on phones, unloaded). */
export function HeroCovers({ books }) {
  if (books.length < 3) return null;
  return (
    <ul className="hero__covers" aria-label="Featured covers">
      {books.slice(0, 3).map((book) => (
        <li key={book._id}>
          <Link to={paths.book(book._id)}><BookCover book={book} className="hero__cover" /></Link>
        </li>
      ))}
    </ul>
  );
}

/** `featured` is useFeaturedBooks()' state. */
export function FeaturedBooks({ featured }) {
  const { status, data: books, error, retry } = featured;
  return (
    <section className="section container" aria-labelledby="featured-title" aria-busy={status === "loading"}>
      <div className="section__head">
        <h2 id="featured-title">Featured Books</h2>
        {status === "success" && books.length >= 8 && <Link to={paths.books()}>View All Books</Link>}
      </div>
      {status === "loading" && <Loading label="Loading featured books…" />}
      {status === "error" && <ErrorNotice title="Failed to fetch featured books." error={error} retry={retry} />}
      {status === "success" && books.length === 0 && (
        <p className="empty">No featured books yet. New titles are on their way.</p>
      )}
      {status === "success" && books.length > 0 && (
        <BookGrid books={books} priority={2} />
      )}
    </section>
  );
}
