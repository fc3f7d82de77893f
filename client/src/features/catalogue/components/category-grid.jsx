// The category cards; by default each opens that category's page.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { Icon } from "../../../components/ui/icon.jsx";
import { getCategories } from "../api.js";

function bookCountText(count) {
  return count === 1 ? "1 book" : `${count.toLocaleString("en-IN")} books`;
}

/** linkFor(category) picks each card's address; hideTitle when the page's h1 already says it. */
export function CategoryGrid({ linkFor = (category) => paths.category(category.name), hideTitle = false }) {
  const { status, data: categories, error, retry } = useRequest(getCategories);
  return (
    <section className={hideTitle ? "" : "section container"} aria-labelledby={hideTitle ? undefined : "categories-title"}
             aria-label={hideTitle ? "Categories" : undefined} aria-busy={status === "loading"}>
      {!hideTitle && (
        <div className="section__head">
          <h2 id="categories-title">Browse by category</h2>
        </div>
      )}
      {status === "loading" && <Loading label="Loading categories…" />}
      {status === "error" && <ErrorNotice title="Failed to load categories." error={error} retry={retry} retryLabel="Try Again" />}
      {status === "success" && (
        <ul className="category-grid">
          {categories.map((category) => (
            <li key={category._id}>
              <Link className="category-card" to={linkFor(category)} style={{ "--accent": category.color || undefined }}>
                <span className="category-card__icon"><Icon name={category.slug} /></span>
                <span className="category-card__name">{category.name}</span>
                <span className="category-card__description">{category.description}</span>
                <span className="category-card__count">{bookCountText(category.bookCount ?? 0)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
