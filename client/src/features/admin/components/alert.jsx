// An inline banner (product §2.6: dismissible); success is announced politely, errors at once.
export function Alert({ kind = "error", children, onDismiss }) {
  return (
    <div className={`adm-alert adm-alert--${kind}`} role={kind === "error" ? "alert" : "status"}>
      <div className="adm-alert__text">{children}</div>
      {onDismiss && (
        <button type="button" className="adm-alert__close" onClick={onDismiss} aria-label="Dismiss message">
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
