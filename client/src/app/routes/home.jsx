// The home screen: hero slides with the search box and featured covers, featured books, popular exams, the
// categories. (The newsletter box is the footer's, once per page.)
import { lazy, Suspense } from "react";
import { useNavigate } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { HeroSlider } from "../../features/catalogue/components/hero-slider.jsx";
import { SearchSuggest } from "../../features/catalogue/components/search-suggest.jsx";
import { FeaturedBooks, HeroCovers, useFeaturedBooks } from "../../features/catalogue/components/featured-books.jsx";

// Popular exams and the categories come after the first view (./home-sections.jsx).
const HomeSections = lazy(() => import("./home-sections.jsx"));

/** The hero's search box: the header's, in large (same suggestions, same results page). */
function HomeSearch() {
  const navigate = useNavigate();
  return (
    <SearchSuggest name="Catalogue" onSearch={(text) => navigate(paths.books({ search: text }))}
      onPick={(book) => navigate(paths.book(book._id))} />
  );
}

export function Home() {
  usePageMeta(null);
  const featured = useFeaturedBooks();
  return (
    <>
      {/* Slides come and go, so the page's one h1 stays put (for screen readers and search engines). */}
      <h1 className="sr-only">Bookstore: study and exam books delivered across India</h1>
      <HeroSlider aside={featured.status === "success" ? <HeroCovers books={featured.data} /> : null}>
        <HomeSearch />
      </HeroSlider>
      <FeaturedBooks featured={featured} />
      <Suspense fallback={null}>
        <HomeSections />
      </Suspense>
    </>
  );
}
