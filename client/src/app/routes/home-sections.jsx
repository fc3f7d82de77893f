// The home page below its first view: popular exams, the categories and the newsletter box. A lazy
// chunk of its own, so the first paint's JavaScript stays within the home page's 100 KB budget.
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";
import { PopularExams } from "../../features/exams/components/popular-exams.jsx";
import { NewsletterForm } from "../../features/newsletter/components/newsletter-form.jsx";

export default function HomeSections() {
  return (
    <>
      <PopularExams />
      <CategoryGrid />
      <div className="container section">
        <NewsletterForm title="Stay in the loop"
                        lead="New editions, exam-season offers and the month's best sellers, at most twice a month." />
      </div>
    </>
  );
}
