// /books: the whole catalogue with search, filters, sort and pages kept in the URL.
import { useSearchParams } from "../../lib/router.jsx";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { BookBrowser } from "../../features/catalogue/components/book-browser.jsx";

export function Books() {
  const [params] = useSearchParams();
  const search = params.get("search");
  usePageMeta(search ? `Books matching "${search}"` : "All Books",
    "Browse and search school, university and competitive-exam books: filter by category, price, language and format.");
  return (
    <section className="container page" aria-labelledby="books-title">
      <h1 id="books-title">Books</h1>
      <BookBrowser />
    </section>
  );
}

export { Books as Component };
