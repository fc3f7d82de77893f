// Order look-up (/order-lookup): a guest finds an order by its number and the e-mail used for it.
import { useState } from "react";
import { useSearchParams } from "../../lib/router.jsx";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Field } from "../../components/ui/field.jsx";
import { Banner } from "../../components/ui/request-state.jsx";
import { lookupOrder } from "../../features/orders/api.js";
import { OrderDetails, StatusBadge } from "../../features/orders/components/order-details.jsx";
import { formatDate } from "../../features/orders/labels.js";

export function OrderLookup() {
  usePageMeta("Track Your Order");
  const [params] = useSearchParams();
  const [fields, setFields] = useState({ orderNumber: params.get("orderNumber") ?? "", email: "" });
  const [errors, setErrors] = useState({});
  const [error, setError] = useState(null);
  const [order, setOrder] = useState(null);
  const [busy, setBusy] = useState(false);
  const change = (event) => setFields({ ...fields, [event.target.name]: event.target.value });

  async function submit(event) {
    event.preventDefault();
    const local = {};
    if (!fields.orderNumber.trim()) local.orderNumber = "Order number is required.";
    if (!fields.email.trim()) local.email = "E-mail is required.";
    setErrors(local);
    setError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      setOrder(await lookupOrder(fields));
    } catch (failure) {
      setOrder(null);
      setError(failure.message || "We could not find that order.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="container page">
      <h1>Track Your Order</h1>
      <p>Enter the order number from your confirmation and the e-mail address you ordered with.</p>
      <form className="form card narrow" onSubmit={submit} noValidate aria-label="Find an order">
        {error && <Banner onDismiss={() => setError(null)}>{error}</Banner>}
        <Field label="Order Number" error={errors.orderNumber} hint="For example BK-2026-000123" required>
          <input name="orderNumber" autoComplete="off" value={fields.orderNumber} onChange={change} />
        </Field>
        <Field label="Email" error={errors.email} required>
          <input name="email" type="email" autoComplete="email" value={fields.email} onChange={change} />
        </Field>
        <button type="submit" className="button form__submit" disabled={busy}>{busy ? "Searching…" : "Find Order"}</button>
      </form>
      {order && (
        <section className="card order-result" aria-labelledby="found-order">
          <div className="order-card__head">
            <h2 id="found-order">Order {order.orderNumber}</h2>
            <StatusBadge status={order.status} />
          </div>
          <p className="order-card__meta">Placed {formatDate(order.createdAt)}</p>
          <OrderDetails order={order} />
        </section>
      )}
    </div>
  );
}

export { OrderLookup as Component };
