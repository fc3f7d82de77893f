// An exam's kits, when it has any: nothing at all while loading, on error or without kits.
import { useCallback } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { getKits } from "../api.js";
import { KitList } from "./kit-list.jsx";

export function ExamKits({ exam }) {
  const request = useCallback(({ signal }) => getKits({ exam: exam.slug, signal }), [exam.slug]);
  const { status, data } = useRequest(request);
  if (status !== "success" || data.length === 0) return null;
  return (
    <section className="section" aria-labelledby="exam-kits-title">
      <div className="section__head"><h2 id="exam-kits-title">{exam.shortName} kits</h2></div>
      <KitList kits={data} />
    </section>
  );
}
