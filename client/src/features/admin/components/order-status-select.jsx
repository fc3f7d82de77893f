// A status dropdown for one order: only the moves the shop allows are offered.
import { allowedOrderStatuses, ORDER_STATUSES, statusLabel } from "../format.js";

export function OrderStatusSelect({ id, order, value, onChange, disabled, label }) {
  const allowed = allowedOrderStatuses(order.status);
  return (
    <select id={id} value={value ?? order.status} onChange={(event) => onChange(event.target.value)}
      disabled={disabled || allowed.length === 0} aria-label={label} className="adm-select-small">
      {ORDER_STATUSES.map((status) => (
        <option key={status} value={status} disabled={status !== order.status && !allowed.includes(status)}>
          {statusLabel(status)}
        </option>
      ))}
    </select>
  );
}
