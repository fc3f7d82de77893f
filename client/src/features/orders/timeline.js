// An order's timeline for the shopper (product §7.8): placed, paid, packed, each parcel shipped with its
// courier and AWB, each tracking event, delivered (or cancelled, or returned), then the promised dates.

export const EVENT_LABELS = {
  picked_up: "Picked up by the courier",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  failed_attempt: "Delivery attempt failed",
  rto: "Returning to the shop",
};

const HISTORY_LABELS = {
  pending: "Order placed",
  processing: "Packed",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
  returned: "Returned to the shop",
  return_requested: "Return requested",
  return_approved: "Return approved",
  return_rejected: "Return not accepted",
  return_received: "Returned books received",
  return_refunded: "Return refunded",
};

const FINISHED = ["delivered", "cancelled", "returned"];

function time(iso) {
  const value = new Date(iso).getTime();
  return Number.isNaN(value) ? 0 : value;
}

function parcelContents(shipment) {
  return (shipment.lines ?? []).map((line) => `${line.quantity} × ${line.title}`).join(", ");
}

/**
 * Steps in time order: {key, kind: "done"|"next", title, detail?, link?, at?}. History entries the parcels
 * already tell (shipped, delivered) are left out when the order has parcels; `promise` (from labels.promiseText)
 * becomes the last, upcoming step while the order is on its way.
 */
export function timelineOf(order, promise = "") {
  const shipments = order?.shipments ?? [];
  const steps = [];
  const history = order?.statusHistory ?? [];
  history.forEach((change, index) => {
    if (shipments.length > 0 && ["shipped", "delivered"].includes(change.status)) return;
    const title = index === 0 ? "Order placed" : HISTORY_LABELS[change.status] ?? "Order updated";
    steps.push({ key: `history-${index}`, kind: "done", title, at: change.at, detail: index === 0 ? "" : change.note || "" });
  });
  if (history.length === 0 && order?.createdAt) {
    steps.push({ key: "placed", kind: "done", title: "Order placed", at: order.createdAt });
  }
  if (order?.paidAt && order.paymentMethod === "online") {
    steps.push({ key: "paid", kind: "done", title: "Payment received", at: order.paidAt });
  }
  const several = shipments.length > 1;
  shipments.forEach((shipment, number) => {
    steps.push({
      key: `shipment-${shipment._id}`, kind: "done", at: shipment.shippedAt,
      title: several ? `Parcel ${number + 1} shipped with ${shipment.courier}` : `Shipped with ${shipment.courier}`,
      detail: several ? parcelContents(shipment) : "",
      awb: shipment.awb,
      link: shipment.trackingUrl || "",
    });
    (shipment.events ?? []).forEach((event, index) => {
      const label = EVENT_LABELS[event.status] ?? "Update";
      steps.push({
        key: `event-${shipment._id}-${index}`, kind: "done", at: event.at,
        title: several ? `Parcel ${number + 1}: ${label}` : label,
        detail: event.location || "",
      });
    });
  });
  if (order?.paidAt && order.paymentMethod === "cod" && order.paymentStatus === "paid") {
    steps.push({ key: "paid", kind: "done", title: "Paid on delivery", at: order.paidAt });
  }
  steps.sort((a, b) => time(a.at) - time(b.at));
  if (promise && !FINISHED.includes(order?.status)) {
    steps.push({ key: "promise", kind: "next", title: "Expected delivery", detail: promise });
  }
  return steps;
}
