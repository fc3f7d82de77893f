// What a section shows while its data loads, when loading failed, or when a call reported a problem.
import { useEffect, useRef } from "react";

export function Loading({ label = "Loading…" }) {
  return (
    <p className="request-state" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The server's (or the client's) message, and a Retry button when retry is given. */
export function ErrorNotice({ title, error, message, retry, retryLabel = "Retry" }) {
  return (
    <div className="request-state request-state--error" role="alert">
      <p><strong>{title}</strong> {message ?? error?.message}</p>
      {retry && <button type="button" className="button" onClick={retry}>{retryLabel}</button>}
    </div>
  );
}

/** An inline banner the shopper can dismiss (product §2.6): errors by default, or a success note. */
export function Banner({ tone = "error", children, onDismiss, focus = false }) {
  const ref = useRef(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div ref={ref} tabIndex={focus ? -1 : undefined} className={`banner banner--${tone}`}
         role={tone === "error" ? "alert" : "status"}>
      <p>{children}</p>
      {onDismiss && (
        <button type="button" className="banner__dismiss" onClick={onDismiss} aria-label="Dismiss message">
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
