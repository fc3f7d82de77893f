// /category/{lower-cased name}: one category's books, with the same filters as /books.
import { useParams } from "../../lib/router.jsx";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { Icon } from "../../components/ui/icon.jsx";
import { getCategories } from "../../features/catalogue/api.js";
import { BookBrowser } from "../../features/catalogue/components/book-browser.jsx";

export function Category() {
  const { name = "" } = useParams();
  const { status, data, error, retry } = useRequest(getCategories);
  const key = name.toLowerCase();
  const category = data?.find((item) => item.name.toLowerCase() === key || item.slug === key);
  usePageMeta(category ? `${category.name} Books` : status === "success" ? "Category not found" : "Category",
    category ? `${category.name}: ${category.description}. Study books delivered across India.` : undefined);

  if (status === "loading") return <div className="container page"><Loading label="Loading category…" /></div>;
  if (status === "error") {
    return (
      <div className="container page">
        <ErrorNotice title="Failed to load categories." error={error} retry={retry} retryLabel="Try Again" />
      </div>
    );
  }
  if (!category) {
    return (
      <section className="container notice-page" aria-labelledby="category-missing">
        <h1 id="category-missing">Category not found</h1>
        <p>There is no category called “{name}”.</p>
        <p><Link className="button" to={paths.categories()}>See all categories</Link></p>
      </section>
    );
  }
  return (
    <section className="container page" aria-labelledby="category-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li><Link to={paths.home()}>Home</Link></li>
          <li><Link to={paths.categories()}>Categories</Link></li>
          <li aria-current="page">{category.name}</li>
        </ol>
      </nav>
      <h1 id="category-title">
        <Icon name={category.slug} className="icon category-title__icon" size={32} /> {category.name}
      </h1>
      <p className="page__lead">{category.description}</p>
      <BookBrowser category={category} />
    </section>
  );
}

export { Category as Component };
