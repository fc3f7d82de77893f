// The home page's Featured Books section.
import { Link } from "react-router-dom";
import { paths } from "../../../config/paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { getFeaturedBooks } from "../api.js";
import { useInitialData } from "../initial-data.js";
import { BookGrid } from "./book-grid.jsx";

export function FeaturedBooks() {
  const initial = useInitialData("initial-featured");
  const { status, data: books, error, retry } = useRequest(getFeaturedBooks, initial);
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
