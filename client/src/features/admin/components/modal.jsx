// A modal dialog: the native <dialog> makes the page behind it inert; Tab wraps inside, Escape closes.
import { useEffect, useId, useRef } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open while mounted; onClose runs for Escape, the close button and a click on the backdrop. */
export function Modal({ title, onClose, children, size = "wide" }) {
  const ref = useRef(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event) => {
    if (event.key !== "Tab") return;
    const items = [...ref.current.querySelectorAll(FOCUSABLE)].filter((item) => item.offsetParent !== null);
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`adm-modal adm-modal--${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault(); // React state decides when the dialog goes away
        onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        if (event.target === ref.current) onClose(); // the backdrop, not the box
      }}
    >
      <div className="adm-modal__box">
        <header className="adm-modal__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="adm-modal__close" onClick={onClose} aria-label="Close">
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div className="adm-modal__body">{children}</div>
      </div>
    </dialog>
  );
}
