// Numbered pages with Previous and Next, as links so every page has its own URL.
import { Link } from "../../../lib/router.jsx";

/** 1 … 4 5 [6] 7 8 … 100: the first, the last and two either side of the current page. */
export function pageNumbers(current, total) {
  const pages = new Set([1, total]);
  for (let page = current - 2; page <= current + 2; page += 1) {
    if (page >= 1 && page <= total) pages.add(page);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const items = [];
  sorted.forEach((page, index) => {
    if (index > 0 && page - sorted[index - 1] > 1) items.push(`gap-${page}`);
    items.push(page);
  });
  return items;
}

export function Pagination({ page, totalPages, hrefForPage }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <ul>
        <li>
          {page > 1
            ? <Link className="pagination__step" to={hrefForPage(page - 1)} rel="prev">Previous</Link>
            : <span className="pagination__step" aria-disabled="true">Previous</span>}
        </li>
        {pageNumbers(page, totalPages).map((item) => (
          <li key={item}>
            {typeof item === "string"
              ? <span className="pagination__gap" aria-hidden="true">…</span>
              : (
                <Link className="pagination__page" to={hrefForPage(item)} aria-current={item === page ? "page" : undefined}
                      aria-label={`Page ${item}`}>
                  {item}
                </Link>
              )}
          </li>
        ))}
        <li>
          {page < totalPages
            ? <Link className="pagination__step" to={hrefForPage(page + 1)} rel="next">Next</Link>
            : <span className="pagination__step" aria-disabled="true">Next</span>}
        </li>
      </ul>
    </nav>
  );
}
