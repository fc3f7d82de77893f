// An order's refunds beyond its returns (RTO parcels, part refunds) and the part refund form (product §6.6).
import { useState } from "react";
import { formatRupees } from "../../../lib/money.js";
import { refundPartOfOrder } from "../api.js";
import { formatDateTime, statusLabel } from "../format.js";
import { Alert } from "./alert.jsx";

const KINDS = { rto: "Parcel came back (RTO)", part: "Part refund" };

export function OrderRefunds({ order, onChanged }) {
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [reference, setReference] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState(null);
  const refunds = order.refunds ?? [];
  const cash = order.paymentMethod === "cod";
  const left = order.refundable ?? 0;
  if (!refunds.length && !left) return null;

  const save = async (event) => {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      const body = { amount: Number(amount), reason: reason.trim(), ...(cash ? { payoutReference: reference.trim() } : {}) };
      const reply = await refundPartOfOrder(order._id, body);
      setNotice({ kind: "success", text: reply.message || "Refund recorded" });
      setAmount("");
      setReason("");
      setReference("");
      onChanged(reply.order);
    } catch (failure) {
      setNotice({ kind: "error", text: `Failed to refund. ${failure.message ?? ""}`.trim() });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="order-refunds">
      <h3 id="order-refunds">Refunds</h3>
      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      {refunds.length > 0 && (
        <ul className="adm-history">
          {refunds.map((refund) => (
            <li key={refund._id}>
              <strong>{KINDS[refund.kind] ?? refund.kind}</strong> · {formatRupees(refund.amount)} · {statusLabel(refund.status)}
              <span className="adm-muted"> {formatDateTime(refund.createdAt)}</span>
              {refund.reason && <p className="adm-history__note">{refund.reason}</p>}
              {refund.error && <p className="adm-history__note">{refund.error}</p>}
            </li>
          ))}
        </ul>
      )}
      {left > 0 && (
        <form onSubmit={save} className="adm-form">
          <p className="adm-hint">Up to {formatRupees(left)} of this order can still be refunded.</p>
          <div className="adm-field">
            <label htmlFor="refund-amount">Amount (₹)</label>
            <input id="refund-amount" type="number" min="0.01" step="0.01" max={left} value={amount}
              onChange={(event) => setAmount(event.target.value)} disabled={busy} required />
          </div>
          <div className="adm-field">
            <label htmlFor="refund-reason">Reason (mailed to the customer)</label>
            <input id="refund-reason" type="text" maxLength={300} value={reason}
              onChange={(event) => setReason(event.target.value)} disabled={busy} required />
          </div>
          {cash && (
            <div className="adm-field">
              <label htmlFor="refund-reference">Payout reference (UPI or bank transfer you made)</label>
              <input id="refund-reference" type="text" maxLength={60} value={reference}
                onChange={(event) => setReference(event.target.value)} disabled={busy} required />
            </div>
          )}
          <button type="submit" className="adm-button" disabled={busy}>{busy ? "Refunding…" : "Refund"}</button>
        </form>
      )}
    </section>
  );
}
