// Orders as a table: the dashboard's recent orders and the orders screen draw the same columns from here.
import { formatRupees } from "../../../lib/money.js";
import { customerName, formatDate } from "../format.js";
import { DataTable } from "./admin-list.jsx";
import { EmailText } from "./email-text.jsx";
import { OrderStatusBadge } from "./status-badge.jsx";

const total = (order) => formatRupees(order.totalAmount ?? order.totalPrice);

/**
 * The order columns. `detailed` adds the e-mail and item count the orders screen shows, and names the
 * total "Total" (the dashboard's summary says "Amount"); `actions(order)`, when given, fills a last column.
 */
export function orderColumns({ detailed = false, actions } = {}) {
  return [
    { key: "order", header: "Order", cell: (order) => <code>{order.orderNumber}</code> },
    { key: "customer", header: "Customer", cell: (order) => customerName(order) },
    ...(detailed ? [
      { key: "email", header: "Email", className: "adm-break", cell: (order) => (
        <a href={`mailto:${order.shippingAddress?.email}`}><EmailText email={order.shippingAddress?.email} /></a>
      ) },
      { key: "items", header: "Items", className: "adm-num", headerClassName: "adm-num",
        cell: (order) => order.itemCount ?? order.orderItems?.length },
      { key: "total", header: "Total", className: "adm-num", headerClassName: "adm-num", cell: total },
    ] : [
      { key: "total", header: "Amount", cell: total },
    ]),
    { key: "status", header: "Status", cell: (order) => <OrderStatusBadge status={order.status} /> },
    { key: "date", header: "Date", className: "adm-nowrap", cell: (order) => formatDate(order.createdAt) },
    ...(actions ? [
      { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions", cell: actions },
    ] : []),
  ];
}

/** A table of orders (or its empty state): each row carries `data-order-id`. */
export function OrderTable({ orders, detailed, actions, empty }) {
  return (
    <DataTable columns={orderColumns({ detailed, actions })} rows={orders} empty={empty}
      rowProps={(order) => ({ "data-order-id": order._id })} />
  );
}
