// A book's stock ledger (product §5.9): every change of its stock, newest first, 20 at a time with "More", and
// the form that records an adjustment with its reason. The server refuses one that would go below 0.
import { useCallback, useEffect, useId, useState } from "react";
import { adjustStock, listStockMovements } from "../api.js";

const KINDS = {
  opening: "Opening stock", sale: "Sale", cancel: "Order cancelled", return_restocked: "Return restocked",
  rto_received: "Parcel back (RTO)", kit_sale: "Sold in a kit", kit_cancel: "Kit order cancelled",
  import: "Import", adjustment: "Adjustment",
};
export const REASONS = [
  ["count_correction", "Count correction"], ["damaged", "Damaged"], ["lost", "Lost"], ["found", "Found"],
  ["received_from_supplier", "Received from supplier"],
];
const REASON_NAMES = Object.fromEntries(REASONS);

function cause(movement) {
  if (movement.orderNumber) return `Order ${movement.orderNumber}`;
  if (movement.importId) return `Import ${movement.importId}`;
  return [REASON_NAMES[movement.reason], movement.note].filter(Boolean).join(": ");
}

function when(iso) {
  return new Date(iso).toLocaleString("en-IN", { dateStyle: "medium", timeStyle: "short" });
}

export function StockLedger({ book }) {
  const id = useId();
  const [ledger, setLedger] = useState({ stock: book.stock, movements: [], page: 0, pages: 0, loading: true, error: "" });
  const [form, setForm] = useState({ quantity: "", reason: "received_from_supplier", note: "" });
  const [state, setState] = useState({ busy: false, error: "", done: "" });

  const load = useCallback(async (page, { signal } = {}) => {
    setLedger((now) => ({ ...now, loading: true, error: "" }));
    try {
      const reply = await listStockMovements(book._id, { page, signal });
      setLedger((now) => ({
        stock: reply.stock, movements: page === 1 ? reply.movements : [...now.movements, ...reply.movements],
        page, pages: reply.pagination.totalPages, loading: false, error: "",
      }));
    } catch (error) {
      if (error.name !== "AbortError") setLedger((now) => ({ ...now, loading: false, error: error.message }));
    }
  }, [book._id]);

  useEffect(() => {
    const controller = new AbortController();
    load(1, { signal: controller.signal });
    return () => controller.abort();
  }, [load]);

  async function adjust(event) {
    event.preventDefault();
    const quantity = Number(form.quantity);
    if (!Number.isInteger(quantity) || quantity === 0) {
      setState({ busy: false, error: "Give the copies to add (+) or take off (-): a whole number, not 0.", done: "" });
      return;
    }
    setState({ busy: true, error: "", done: "" });
    try {
      const reply = await adjustStock(book._id, { quantity, reason: form.reason, note: form.note });
      setForm({ ...form, quantity: "", note: "" });
      setState({ busy: false, error: "", done: reply.message });
      await load(1);
    } catch (error) {
      setState({ busy: false, error: error.message, done: "" });
    }
  }

  return (
    <section className="adm-panel adm-stock-ledger" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Stock ledger</h2>
      <p role="status">{`${ledger.stock} in stock.`}</p>
      <form className="adm-form adm-stock-ledger__form" onSubmit={adjust} noValidate aria-busy={state.busy}>
        <h3>Adjust stock</h3>
        <div className="adm-field">
          <label htmlFor={`${id}-quantity`}>Copies (+ to add, − to take off)</label>
          <input id={`${id}-quantity`} name="quantity" inputMode="numeric" value={form.quantity} disabled={state.busy}
            aria-describedby={state.error ? `${id}-error` : undefined}
            onChange={(event) => setForm({ ...form, quantity: event.target.value })} />
        </div>
        <div className="adm-field">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <select id={`${id}-reason`} name="reason" value={form.reason} disabled={state.busy}
            onChange={(event) => setForm({ ...form, reason: event.target.value })}>
            {REASONS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div className="adm-field">
          <label htmlFor={`${id}-note`}>Note</label>
          <input id={`${id}-note`} name="note" maxLength={500} value={form.note} disabled={state.busy}
            onChange={(event) => setForm({ ...form, note: event.target.value })} />
        </div>
        {state.error && <p className="adm-field__error" id={`${id}-error`} role="alert">{state.error}</p>}
        {state.done && <p className="adm-field__hint">{state.done}</p>}
        <button type="submit" className="adm-button" disabled={state.busy}>{state.busy ? "Saving…" : "Adjust stock"}</button>
      </form>
      {ledger.error && <p role="alert">{`Failed to load the ledger. ${ledger.error}`}</p>}
      <table className="adm-table">
        <thead>
          <tr><th scope="col">When</th><th scope="col">Movement</th><th scope="col">Copies</th>
            <th scope="col">Stock after</th><th scope="col">By</th><th scope="col">Cause</th></tr>
        </thead>
        <tbody>
          {ledger.movements.map((movement) => (
            <tr key={movement._id}>
              <td>{when(movement.createdAt)}</td>
              <td>{KINDS[movement.kind] ?? movement.kind}</td>
              <td>{movement.quantity > 0 ? `+${movement.quantity}` : movement.quantity}</td>
              <td>{movement.stockAfter}</td>
              <td>{movement.actor}</td>
              <td>{cause(movement)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ledger.page < ledger.pages && (
        <button type="button" className="adm-button adm-button--small" disabled={ledger.loading}
          onClick={() => load(ledger.page + 1)}>{ledger.loading ? "Loading…" : "More"}</button>
      )}
    </section>
  );
}
