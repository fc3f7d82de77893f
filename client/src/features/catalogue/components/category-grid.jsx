// The home page's category cards, each opening that category's page.
import { Link } from "react-router-dom";
import { paths } from "../../../config/paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../../components/ui/request-state.jsx";
import { getCategories } from "../api.js";

function bookCountText(count) {
  return count === 1 ? "1 book" : `${count.toLocaleString("en-IN")} books`;
}

export function CategoryGrid() {
  const { status, data: categories, error, retry } = useRequest(getCategories);
  return (
    <section className="section container" aria-labelledby="categories-title" aria-busy={status === "loading"}>
      <div className="section__head">
        <h2 id="categories-title">Browse by category</h2>
      </div>
      {status === "loading" && <Loading label="Loading categories…" />}
      {status === "error" && <ErrorNotice title="Categories could not be loaded." error={error} retry={retry} />}
      {status === "success" && (
        <ul className="category-grid">
          {categories.map((category) => (
            <li key={category._id}>
              <Link className="category-card" to={paths.category(category.name)} style={{ "--accent": category.color || undefined }}>
                <span className="category-card__icon" aria-hidden="true">{category.icon}</span>
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
