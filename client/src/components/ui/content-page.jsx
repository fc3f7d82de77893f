// The frame of a text page (about, policies): title, description for search engines, lead, body.
import { usePageMeta } from "../../lib/use-page-meta.js";

export function ContentPage({ title, description, lead, updated, children }) {
  usePageMeta(title, description);
  return (
    <article className="container page content-page">
      <h1>{title}</h1>
      {lead && <p className="page__lead">{lead}</p>}
      {updated && <p className="content-page__updated">Last updated: {updated}</p>}
      {children}
    </article>
  );
}
