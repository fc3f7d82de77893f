// A status dropdown for one order: only the moves the shop allows without a reason are offered (moves back or
// past a step take a reason, in the order's details).
import { allowedOrderStatuses, ORDER_STATUSES, statusLabel } from "../format.js";

export function OrderStatusSelect({ id, order, value, onChange, disabled, label, withReason = false }) {
  const allowed = allowedOrderStatuses(order, { withReason });
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
