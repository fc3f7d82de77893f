// The document's title and meta description for the current screen.
import { useEffect } from "react";

export const SITE_NAME = "Bookstore";
const DEFAULT_DESCRIPTION =
  "School, university and competitive-exam books delivered across India. Prices in rupees, one flat shipping charge, cash on delivery or online payment.";

/** The one <meta name="description"> of index.html, made when a page lacks it. */
function descriptionTag() {
  let tag = document.head.querySelector('meta[name="description"]');
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = "description";
    document.head.append(tag);
  }
  return tag;
}

/**
 * Set "title — Bookstore" and the description while the screen is shown. React 19's hoisted <title>
 * would do for the title, but a hoisted <meta> would sit next to index.html's instead of replacing it.
 */
export function usePageMeta(title, description = DEFAULT_DESCRIPTION) {
  useEffect(() => {
    document.title = title ? `${title} — ${SITE_NAME}` : `${SITE_NAME} — Study & Exam Books`;
    descriptionTag().setAttribute("content", description || DEFAULT_DESCRIPTION);
  }, [title, description]);
}
