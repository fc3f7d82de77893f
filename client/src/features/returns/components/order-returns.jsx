// The returns of an order on the shopper's order page (signed in, or the guest's link): each return's
// status and refund, and the "Request a return" form while copies may still be returned (product §7.10).
// Loaded on its own (a dynamic import) so the order page costs nothing more until an order is delivered.
import { useState } from "react";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { addReturnPhoto, requestReturn } from "../api.js";
import { MAX_PHOTOS, PHOTO_MAX_BYTES, PHOTO_TYPES, RETURN_REASONS, reasonLabel, returnBody, returnChoices,
  returnStatusLabel } from "../labels.js";

const DATE = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" });
const rupees = (value) => `₹${Number(value).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// A return's step in the colours of the order statuses it resembles.
const BADGE = { requested: "pending", approved: "processing", received: "shipped", refund_pending: "shipped",
  refunded: "delivered", rejected: "cancelled" };

function readAsDataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error("The photo could not be read."));
    reader.readAsDataURL(file);
  });
}

function ReturnCard({ item }) {
  return (
    <li className="card return-card" data-return-id={item._id}>
      <p className="return-card__head">
        <strong>Return requested {DATE.format(new Date(item.createdAt))}</strong>{" "}
        <span className={`status-badge status-badge--${BADGE[item.status] ?? "pending"}`}>{returnStatusLabel(item.status)}</span>
      </p>
      <ul className="return-card__lines">
        {item.lines.map((line) => (
          <li key={`${line.kitLine ?? ""}-${line.book}`}>{line.quantity} × {line.title} — {reasonLabel(line.reason)}</li>
        ))}
      </ul>
      <p>
        Refund {rupees(item.refundAmount)}
        {item.shippingDeducted > 0 && ` (less ${rupees(item.shippingDeducted)} shipping)`} to {item.refundTo}
        {item.payoutReference && `, reference ${item.payoutReference}`}.
      </p>
      {item.method && <p>{item.method === "pickup" ? "A courier collects the books from your address." : "Please send the books to us."}</p>}
      {item.adminNote && <p>{item.status === "rejected" ? "Reason: " : "Note from us: "}{item.adminNote}</p>}
      {item.photos.length > 0 && <p className="muted">{item.photos.length} photo{item.photos.length === 1 ? "" : "s"} sent</p>}
    </li>
  );
}

function ReturnForm({ order, token, onDone, onCancel }) {
  const cash = order.paymentMethod === "cod";
  const titles = Object.fromEntries(order.orderItems.filter((line) => line.book).map((line) => [line.book, line.title]));
  const choices = returnChoices(order.returnableLines, titles);
  const [quantities, setQuantities] = useState({});
  const [reasons, setReasons] = useState({});
  const [note, setNote] = useState("");
  const [refundKind, setRefundKind] = useState("upi");
  const [refund, setRefund] = useState({ upi: "", accountNumber: "", ifsc: "", holder: "" });
  const [photos, setPhotos] = useState([]);
  const [problem, setProblem] = useState(null);
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);

  function choosePhotos(event) {
    const files = [...event.target.files];
    const bad = files.find((file) => !PHOTO_TYPES.includes(file.type) || file.size > PHOTO_MAX_BYTES);
    if (bad) {
      setProblem(`${bad.name}: a photo must be a JPEG, PNG or WebP image of at most 5 MB.`);
      event.target.value = "";
      return;
    }
    if (files.length > MAX_PHOTOS) {
      setProblem(`Choose at most ${MAX_PHOTOS} photos.`);
      event.target.value = "";
      return;
    }
    setProblem(null);
    setPhotos(files);
  }

  async function submit(event) {
    event.preventDefault();
    const body = returnBody({ choices, quantities, reasons, note, cash, refundKind, ...refund });
    if (body.lines.length === 0) {
      setProblem("Choose at least one book to return.");
      return;
    }
    setBusy(true);
    setProblem(null);
    setErrors({});
    try {
      let made = await requestReturn(order._id, body, token);
      for (const file of photos) made = await addReturnPhoto(order._id, made._id, await readAsDataUrl(file), token);
      onDone(made);
    } catch (failure) {
      setProblem(failure.message || "The return could not be requested. Please try again.");
      const refundErrors = failure.errors?.refundTo;
      setErrors(refundErrors && typeof refundErrors === "object" && !Array.isArray(refundErrors) ? refundErrors : {});
    } finally {
      setBusy(false);
    }
  }

  const set = (name) => (event) => setRefund({ ...refund, [name]: event.target.value });
  const first = (list) => (Array.isArray(list) ? list[0] : undefined);
  return (
    <form className="card form return-form" onSubmit={submit} noValidate aria-labelledby="return-form-title">
      <h3 id="return-form-title">Request a return</h3>
      <p className="muted">
        For damaged, defective, wrong or missing items, until {DATE.format(new Date(order.returnableUntil))}.
      </p>
      {problem && <Banner tone="error" focus>{problem}</Banner>}
      <fieldset className="return-form__lines">
        <legend>Books to return</legend>
        {choices.map(({ key, title, quantity }) => (
          <div key={key} className="form__row return-form__line">
            <Field label={`Copies of ${title} to return`}>
              <select value={quantities[key] ?? "0"} onChange={(event) => setQuantities({ ...quantities, [key]: event.target.value })}>
                {Array.from({ length: quantity + 1 }, (_, count) => <option key={count} value={count}>{count}</option>)}
              </select>
            </Field>
            {Number(quantities[key]) > 0 && (
              <Field label={`Reason for ${title}`}>
                <select value={reasons[key] ?? "damaged"} onChange={(event) => setReasons({ ...reasons, [key]: event.target.value })}>
                  {RETURN_REASONS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
                </select>
              </Field>
            )}
          </div>
        ))}
      </fieldset>
      <Field label="What happened (optional)">
        <textarea rows="3" maxLength={500} value={note} onChange={(event) => setNote(event.target.value)} />
      </Field>
      <Field label="Photos (optional, up to 3)" hint="JPEG, PNG or WebP, at most 5 MB each.">
        <input type="file" accept={PHOTO_TYPES.join(",")} multiple onChange={choosePhotos} />
      </Field>
      {cash && (
        <fieldset className="return-form__refund">
          <legend>Where should we send your refund?</legend>
          <p className="muted">Cash-on-delivery orders are refunded to a UPI ID or a bank account, less the order's shipping fee. We keep these details for this refund only.</p>
          <div className="return-form__choices" role="radiogroup" aria-label="Refund to">
            <label><input type="radio" name="refund-kind" value="upi" checked={refundKind === "upi"} onChange={() => setRefundKind("upi")} /> To a UPI ID</label>
            <label><input type="radio" name="refund-kind" value="bank" checked={refundKind === "bank"} onChange={() => setRefundKind("bank")} /> To a bank account</label>
          </div>
          {refundKind === "upi" ? (
            <Field label="UPI ID" hint="For example name@okaxis" error={first(errors.upi)} required>
              <input value={refund.upi} onChange={set("upi")} autoComplete="off" spellCheck="false" />
            </Field>
          ) : (
            <>
              <Field label="Account number" error={first(errors.accountNumber)} required>
                <input value={refund.accountNumber} onChange={set("accountNumber")} inputMode="numeric" autoComplete="off" />
              </Field>
              <Field label="IFSC" hint="11 characters, e.g. HDFC0001234" error={first(errors.ifsc)} required>
                <input value={refund.ifsc} onChange={set("ifsc")} autoComplete="off" spellCheck="false" />
              </Field>
              <Field label="Account holder's name" error={first(errors.holder)} required>
                <input value={refund.holder} onChange={set("holder")} autoComplete="off" />
              </Field>
            </>
          )}
        </fieldset>
      )}
      <p className="order-card__actions">
        <button type="submit" className="button" disabled={busy}>{busy ? "Sending…" : "Send return request"}</button>{" "}
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
      </p>
    </form>
  );
}

/** `onChanged()`: a return was made, so the order should be read again. */
export function OrderReturns({ order, token, onChanged }) {
  const [open, setOpen] = useState(false);
  const [made, setMade] = useState(null);
  const returns = order.returns ?? [];
  const canAsk = (order.returnableLines ?? []).length > 0 && order.returnableUntil;
  if (returns.length === 0 && !canAsk) return null;
  return (
    <section className="order-returns" aria-labelledby="order-returns-title">
      <h2 id="order-returns-title">Returns</h2>
      {made && <Banner tone="success" onDismiss={() => setMade(null)}>Return requested. We will e-mail you within 2 business days.</Banner>}
      {returns.length > 0 && <ul className="order-returns__list">{returns.map((item) => <ReturnCard key={item._id} item={item} />)}</ul>}
      {canAsk && !open && (
        <p><button type="button" className="button button--secondary" onClick={() => setOpen(true)}>Request a return</button></p>
      )}
      {canAsk && open && (
        <ReturnForm order={order} token={token} onCancel={() => setOpen(false)}
          onDone={(request) => { setOpen(false); setMade(request); onChanged(); }} />
      )}
    </section>
  );
}

export default OrderReturns;
