// /categories: the 18 categories, each opening the catalogue filtered to it.
import { usePageMeta } from "../../lib/use-page-meta.js";
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";
import { paths } from "../../config/paths.js";

export function Categories() {
  usePageMeta("Categories", "All 18 categories: school classes I to XII, university courses, engineering, medical and every major competitive exam.");
  return (
    <div className="container page">
      <h1>Categories</h1>
      <p className="page__lead">From school classes to the toughest entrance exams: pick a shelf.</p>
      <CategoryGrid hideTitle linkFor={(category) => paths.books({ category: category.name.toLowerCase() })} />
    </div>
  );
}

export { Categories as Component };
