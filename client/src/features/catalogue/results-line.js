// The line above the book grid: "Showing 12 of 1,234 books for "physics" in GATE".

/**
 * shown: books on this page; pagination: the list reply's ({total, totalIsApproximate}). A search
 * with more than 1,000 matches is counted no further, so its total reads "1,000+".
 */
export function resultsLine(shown, pagination, search, categoryName) {
  const total = `${pagination.total.toLocaleString("en-IN")}${pagination.totalIsApproximate ? "+" : ""}`;
  let line = `Showing ${shown.toLocaleString("en-IN")} of ${total} ${pagination.total === 1 && !pagination.totalIsApproximate ? "book" : "books"}`;
  if (search) line += ` for "${search}"`;
  if (categoryName) line += ` in ${categoryName}`;
  return line;
}
