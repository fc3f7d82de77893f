// The admin's dialog: the shop's modal behaviour (components/ui/modal.jsx) in the admin's own frame.
import { useId } from "react";
import { useModalDialog } from "../../../components/ui/modal.jsx";

/** Open while mounted; onClose runs for Escape, the close button and a click on the backdrop. */
export function Modal({ title, onClose, children, size = "wide" }) {
  const dialogProps = useModalDialog(true, onClose);
  const titleId = useId();
  return (
    <dialog {...dialogProps} className={`adm-modal adm-modal--${size}`} aria-labelledby={titleId}>
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
