// The home screen: hero slides with the search box and featured covers, featured books, popular exams, the
// categories. (The newsletter box is the footer's, once per page.)
import { usePageMeta } from "../../lib/use-page-meta.js";
import { HeroSlider } from "../../features/catalogue/components/hero-slider.jsx";
import { SearchForm } from "../../features/catalogue/components/search-form.jsx";
import { FeaturedBooks, HeroCovers, useFeaturedBooks } from "../../features/catalogue/components/featured-books.jsx";
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";
import { PopularExams } from "../../features/exams/components/popular-exams.jsx";

export function Home() {
  usePageMeta(null);
  const featured = useFeaturedBooks();
  return (
    <>
      {/* Slides come and go, so the page's one h1 stays put (for screen readers and search engines). */}
      <h1 className="sr-only">Bookstore: study and exam books delivered across India</h1>
      <HeroSlider aside={featured.status === "success" ? <HeroCovers books={featured.data} /> : null}>
        <SearchForm />
      </HeroSlider>
      <FeaturedBooks featured={featured} />
      <PopularExams />
      <CategoryGrid />
    </>
  );
}
