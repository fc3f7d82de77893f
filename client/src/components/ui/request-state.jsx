// What a section shows while its data loads, or when loading failed.

export function Loading({ label = "Loading…" }) {
  return (
    <p className="request-state" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The server's (or the client's) message, and a Retry button when retry is given. */
export function ErrorNotice({ title, error, retry }) {
  return (
    <div className="request-state request-state--error" role="alert">
      <p><strong>{title}</strong> {error?.message}</p>
      {retry && <button type="button" className="button" onClick={retry}>Retry</button>}
    </div>
  );
}
