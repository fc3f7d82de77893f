// Asks before a change that matters: a question, a confirm button and Cancel (focused first).
import { useEffect, useRef } from "react";
import { Modal } from "./modal.jsx";

export function ConfirmDialog({ title, children, confirmLabel, danger = false, busy = false, onConfirm, onCancel }) {
  const cancelRef = useRef(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <Modal title={title} onClose={busy ? () => {} : onCancel} size="narrow">
      <div className="adm-confirm">{children}</div>
      <div className="adm-actions">
        <button type="button" ref={cancelRef} className="adm-button adm-button--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className={`adm-button${danger ? " adm-button--danger" : ""}`} onClick={onConfirm}
          disabled={busy}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
