// /book/{id}: a shareable page for one book, with the modal's content and a few related books.
import { useCallback, useId } from "react";
import { Link, useParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { getBestsellers, getBook } from "../../features/catalogue/api.js";
import { useInitialData } from "../../features/catalogue/initial-data.js";
import { BookDetails } from "../../features/catalogue/components/book-details.jsx";
import { BookGrid } from "../../features/catalogue/components/book-grid.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { BookBuying } from "../components/book-buying.jsx";
import { BookActions } from "../components/book-actions.jsx";
import { Price } from "../../components/ui/price.jsx";
import { BookReviews } from "../../features/reviews/components/book-reviews.jsx";

function RelatedBooks({ book }) {
  const request = useCallback(
    ({ signal }) => getBestsellers({ limit: 5, category: book.categorySlug, signal }),
    [book.categorySlug],
  );
  const { status, data } = useRequest(request);
  const related = (data ?? []).filter((other) => other._id !== book._id).slice(0, 4);
  if (status !== "success" || related.length === 0) return null;
  return (
    <section className="section" aria-labelledby="related-title">
      <div className="section__head">
        <h2 id="related-title">More in {book.category}</h2>
        <Link to={paths.category(book.category)}>See all</Link>
      </div>
      <BookGrid books={related} />
    </section>
  );
}

function describe(book) {
  const text = book.description || `${book.title} by ${book.author}.`;
  return text.length > 155 ? `${text.slice(0, 152).trimEnd()}…` : text;
}

export function Book() {
  const { isSignedIn } = useAuth();
  const { id = "" } = useParams();
  const titleId = useId();
  const initial = useInitialData("initial-book", (book) => (book._id === id ? book : undefined));
  const request = useCallback(({ signal }) => getBook(id, { signal }), [id]);
  const { status, data: book, error, retry } = useRequest(request, initial);
  const missing = status === "error" && error?.status === 404;
  usePageMeta(book ? `${book.title} by ${book.author}` : missing ? "Book not found" : "Book",
    book ? describe(book) : undefined);

  if (status === "loading") return <div className="container page"><Loading label="Loading book…" /></div>;
  if (missing) {
    return (
      <section className="container notice-page" aria-labelledby="book-missing">
        <h1 id="book-missing">Book not found</h1>
        <p>This book is not in the shop any more, or the link is mistyped.</p>
        <p><Link className="button" to={paths.books()}>Browse all books</Link></p>
      </section>
    );
  }
  if (status === "error") {
    return <div className="container page"><ErrorNotice title="Failed to fetch book." error={error} retry={retry} /></div>;
  }
  return (
    <article className="container page" aria-labelledby={titleId}>
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li><Link to={paths.home()}>Home</Link></li>
          <li><Link to={paths.category(book.category)}>{book.category}</Link></li>
          <li aria-current="page">{book.title}</li>
        </ol>
      </nav>
      <BookDetails book={book} titleId={titleId} level={1} eagerCover buyExtras={<BookBuying book={book} />} />
      <BookReviews bookId={book._id} isSignedIn={isSignedIn} />
      <RelatedBooks book={book} />
      {/* Phones: the price and Add to Cart stay at the bottom of the screen while the page scrolls. */}
      <section className="buy-bar" aria-label="Buy this book">
        <Price price={book.price} discountedPrice={book.discountedPrice} className="buy-bar__price" />
        <BookActions book={book} compact />
      </section>
    </article>
  );
}

export { Book as Component };
