// The home page below its first view: popular exams and the categories. A lazy chunk of its own, so the
// first paint's JavaScript stays within the home page's 100 KB budget. (The newsletter box is the footer's.)
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";
import { PopularExams } from "../../features/exams/components/popular-exams.jsx";

export default function HomeSections() {
  return (
    <>
      <PopularExams />
      <CategoryGrid />
    </>
  );
}
