// A coloured status pill; the word is always written out, so colour is never the only signal.
import { ORDER_STATUSES, statusLabel } from "../format.js";

/** Order statuses; product §7.2: an unknown status displays like pending. */
export function OrderStatusBadge({ status }) {
  // A return's step in the order's history (product §7.10): "return_approved" reads "Return approved".
  if (typeof status === "string" && status.startsWith("return_")) {
    return <span className="adm-badge adm-badge--processing">{`Return ${status.slice(7).replace(/_/g, " ")}`}</span>;
  }
  const known = ORDER_STATUSES.includes(status) ? status : "pending";
  return <span className={`adm-badge adm-badge--${known}`}>{statusLabel(known)}</span>;
}

/** Contact statuses in the colours of product §10.4: new red, in progress orange, resolved green. */
export function ContactStatusBadge({ status }) {
  const known = ["new", "in-progress", "resolved"].includes(status) ? status : "new";
  return <span className={`adm-badge adm-badge--contact-${known}`}>{statusLabel(known)}</span>;
}
