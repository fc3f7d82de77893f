// Previous / Next and 'Page X of Y' (product §2.5), shown only when there is more than one page.
export function Pager({ page, totalPages, onPage, label }) {
  if (!totalPages || totalPages <= 1) return null;
  return (
    <nav className="adm-pager" aria-label={label}>
      <button type="button" className="adm-button adm-button--secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="adm-pager__where" aria-live="polite">Page {page} of {totalPages}</span>
      <button type="button" className="adm-button adm-button--secondary" disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
