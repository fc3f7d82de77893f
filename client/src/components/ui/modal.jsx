// A modal dialog on the native <dialog>: the page behind is inert, Escape closes, focus comes back.
import { useEffect, useLayoutEffect, useRef } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), '
  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control comes back to the first (and Shift+Tab the other way), not to the browser. */
function keepTabInside(event) {
  if (event.key !== "Tab") return;
  const controls = [...event.currentTarget.querySelectorAll(FOCUSABLE)].filter((element) => element.offsetParent !== null);
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * What makes a <dialog> modal, for any dialog markup: spread the returned props on it. While `open`,
 * showModal() makes everything outside inert (the focus trap browsers keep correct, also for screen
 * readers), Tab wraps inside, and `onClose` runs for Escape and a click on the backdrop; on close,
 * focus goes back to whatever opened it.
 */
export function useModalDialog(open, onClose) {
  const dialogRef = useRef(null);
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

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

  return {
    ref: dialogRef,
    onKeyDown: keepTabInside,
    onCancel: (event) => {
      event.preventDefault(); // Escape: React state decides when it closes
      onCloseRef.current();
    },
    onClick: (event) => {
      if (event.target === event.currentTarget) onCloseRef.current(); // a click on the backdrop
    },
  };
}

/** The shop's dialog: shown while `open`; `onClose` is called for Escape, the close button and the backdrop. */
export function Modal({ open, onClose, title, titleId, className = "", children }) {
  const dialogProps = useModalDialog(open, onClose);
  if (!open) return null;
  return (
    <dialog
      {...dialogProps}
      className={`modal ${className}`}
      aria-labelledby={titleId}
      aria-label={titleId ? undefined : title}
    >
      <div className="modal__panel">
        <button type="button" className="modal__close" onClick={() => onClose()} aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
        {children}
      </div>
    </dialog>
  );
}
