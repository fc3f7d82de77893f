// The home page's "Popular exams": links to the exams shoppers prepare for most.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { getExams } from "../api.js";

const popular = ({ signal }) => getExams({ popular: true, signal });

export function PopularExams() {
  const { status, data } = useRequest(popular);
  // A quiet section: if the list cannot be had, the home page simply goes without it.
  if (status !== "success" || data.length === 0) return null;
  return (
    <section className="section container" aria-labelledby="popular-exams-title">
      <div className="section__head">
        <h2 id="popular-exams-title">Popular exams</h2>
        <Link to={paths.exams()}>All exams</Link>
      </div>
      <ul className="exam-chips">
        {data.map((exam) => (
          <li key={exam._id}><Link className="exam-chip" to={paths.exam(exam.slug)}>{exam.name}</Link></li>
        ))}
      </ul>
    </section>
  );
}
