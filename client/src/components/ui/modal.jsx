// A modal dialog on the native <dialog>: the page behind is inert, Escape closes, focus comes back.
import { useEffect, useRef } from "react";

/**
 * Shown while `open`; `onClose` is called for Escape, the close button and a click on the backdrop.
 * showModal() makes everything outside the dialog inert, which is the focus trap browsers keep
 * correct for us (also for screen readers, which a JavaScript trap cannot reach).
 */
export function Modal({ open, onClose, title, titleId, className = "", children }) {
  const dialogRef = useRef(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return undefined;
    const opener = document.activeElement;
    dialog.showModal();
    document.documentElement.classList.add("has-modal");
    return () => {
      dialog.close();
      document.documentElement.classList.remove("has-modal");
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={dialogRef}
      className={`modal ${className}`}
      aria-labelledby={titleId}
      aria-label={titleId ? undefined : title}
      onCancel={(event) => {
        event.preventDefault(); // Escape: React state decides when it closes
        onCloseRef.current();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onCloseRef.current(); // a click on the backdrop
      }}
    >
      <div className="modal__panel">
        <button type="button" className="modal__close" onClick={() => onCloseRef.current()} aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
        {children}
      </div>
    </dialog>
  );
}
