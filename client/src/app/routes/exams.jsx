// /exams: every exam the shop stocks books for, grouped (engineering, medical, ... school boards).
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { getExams } from "../../features/exams/api.js";
import { bookCountText, groupExams } from "../../features/exams/grouping.js";

export function Exams() {
  usePageMeta("Exams", "Books for JEE, NEET, UPSC, SSC, bank exams, GATE, CAT, CLAT, CUET and school boards, by exam and subject.");
  const { status, data, error, retry } = useRequest(getExams);
  return (
    <div className="container page">
      <h1>Exams</h1>
      <p className="page__lead">Pick your exam to see its books by subject and medium.</p>
      {status === "loading" && <Loading label="Loading exams…" />}
      {status === "error" && <ErrorNotice title="Failed to load exams." error={error} retry={retry} retryLabel="Try Again" />}
      {status === "success" && groupExams(data).map(([group, exams]) => (
        <section key={group} className="exam-group" aria-labelledby={`exam-group-${group}`}>
          <h2 id={`exam-group-${group}`}>{group}</h2>
          <ul className="exam-list">
            {exams.map((exam) => (
              <li key={exam._id}>
                <Link className="exam-card" to={paths.exam(exam.slug)}>
                  <span className="exam-card__name">{exam.name}</span>
                  <span className="exam-card__count">{bookCountText(exam.bookCount)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export { Exams as Component };
