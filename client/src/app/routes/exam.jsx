// /exam/{slug}: one exam's books with its subjects and medium as filters, and its best sellers.
import { useCallback } from "react";
import { Link, useParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { getExam } from "../../features/exams/api.js";
import { useInitialData } from "../../features/catalogue/initial-data.js";
import { bookCountText } from "../../features/exams/grouping.js";
import { BookBrowser } from "../../features/catalogue/components/book-browser.jsx";
import { BookGrid } from "../../features/catalogue/components/book-grid.jsx";
import { ExamKits } from "../../features/kits/components/exam-kits.jsx";

export function Exam() {
  const { slug = "" } = useParams();
  const request = useCallback(({ signal }) => getExam(slug, { signal }), [slug]);
  // Flask writes this exam's reply into the page (seo.exam_page): its best sellers paint without a round trip.
  const initial = useInitialData("initial-exam", (reply) => (reply.exam?.slug === slug ? reply : undefined));
  const { status, data, error, retry } = useRequest(request, initial);
  const missing = status === "error" && error?.status === 404;
  const exam = data?.exam;
  usePageMeta(exam ? `${exam.name} Books` : missing ? "Exam not found" : "Exam",
    exam ? `${exam.name} books by subject: ${exam.subjects.map((s) => s.name).join(", ")}. Delivered across India.` : undefined);

  if (status === "loading") return <div className="container page"><Loading label="Loading exam…" /></div>;
  if (missing) {
    return (
      <section className="container notice-page" aria-labelledby="exam-missing">
        <h1 id="exam-missing">Exam not found</h1>
        <p>There is no exam called “{slug}”.</p>
        <p><Link className="button" to={paths.exams()}>See all exams</Link></p>
      </section>
    );
  }
  if (status === "error") {
    return <div className="container page"><ErrorNotice title="Failed to load the exam." error={error} retry={retry} /></div>;
  }
  return (
    <section className="container page" aria-labelledby="exam-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li><Link to={paths.home()}>Home</Link></li>
          <li><Link to={paths.exams()}>Exams</Link></li>
          <li aria-current="page">{exam.name}</li>
        </ol>
      </nav>
      <h1 id="exam-title">{exam.name}</h1>
      <p className="page__lead">{exam.group} · {bookCountText(exam.bookCount)}</p>
      {data.bestSellers.length > 0 && (
        <section className="section" aria-labelledby="exam-bestsellers-title">
          <div className="section__head">
            <h2 id="exam-bestsellers-title">Best sellers for {exam.shortName}</h2>
          </div>
          {/* The first covers are the page's largest paint: loaded at once, not lazily. */}
          <BookGrid books={data.bestSellers.slice(0, 4)} priority={2} />
        </section>
      )}
      <ExamKits exam={exam} />
      <h2 className="exam-page__books-title">All {exam.shortName} books</h2>
      <BookBrowser exam={exam} />
    </section>
  );
}

export { Exam as Component };
