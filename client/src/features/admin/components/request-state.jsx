// What an admin screen shows while its data loads, or when loading failed (with Retry).
export function AdminLoading({ label = "Loading…" }) {
  return (
    <p className="adm-loading" role="status">
      <span className="adm-spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The screen's own message (product §2.6), the server's reason, and Retry. */
export function AdminLoadError({ title, error, retry }) {
  return (
    <div className="adm-alert adm-alert--error adm-load-error" role="alert">
      <div className="adm-alert__text">
        <strong>{title}</strong>
        {error?.message && <span> {error.message}</span>}
      </div>
      {retry && <button type="button" className="adm-button" onClick={retry}>Retry</button>}
    </div>
  );
}
