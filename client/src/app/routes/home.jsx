// The home screen: hero slides with the search box, featured books, popular exams, the categories, the newsletter.
import { usePageMeta } from "../../lib/use-page-meta.js";
import { HeroSlider } from "../../features/catalogue/components/hero-slider.jsx";
import { SearchForm } from "../../features/catalogue/components/search-form.jsx";
import { FeaturedBooks } from "../../features/catalogue/components/featured-books.jsx";
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";
import { PopularExams } from "../../features/exams/components/popular-exams.jsx";
import { NewsletterForm } from "../../features/newsletter/components/newsletter-form.jsx";

export function Home() {
  usePageMeta(null);
  return (
    <>
      {/* Slides come and go, so the page's one h1 stays put (for screen readers and search engines). */}
      <h1 className="sr-only">Bookstore: study and exam books delivered across India</h1>
      <HeroSlider>
        <SearchForm />
      </HeroSlider>
      <FeaturedBooks />
      <PopularExams />
      <CategoryGrid />
      <div className="container section">
        <NewsletterForm title="Stay in the loop"
                        lead="New editions, exam-season offers and the month's best sellers, at most twice a month." />
      </div>
    </>
  );
}
