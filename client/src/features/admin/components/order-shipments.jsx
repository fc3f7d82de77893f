// The order's parcels in the admin's order dialog: Ship (by hand or through Shiprocket, all lines left or some),
// each parcel with its tracking events, Add event, and Received for a parcel returned to origin. A parcel
// Shiprocket is booking (a job) shows so and the section reloads the order until it is booked or failed;
// a failed booking shows Shiprocket's reason and Try again (its lines may also be shipped by hand).
import { useCallback, useEffect, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { addShipmentEvent, listCouriers, receiveParcel, retryBooking, shipOrder } from "../api.js";
import { formatDateTime, isBooking, SHIPMENT_EVENTS, unshippedLines } from "../format.js";

// How often the screen asks whether Shiprocket has booked the parcel yet.
const BOOKING_POLL_MS = 3000;
import { Alert } from "./alert.jsx";

const SHIPPABLE = ["pending", "processing", "shipped"];

export function OrderShipments({ order, onChanged }) {
  const [notice, setNotice] = useState(null);
  const [shipping, setShipping] = useState(false);
  const left = unshippedLines(order);
  const unpaidOnline = order.paymentMethod === "online" && order.paymentStatus !== "paid";
  const canShip = SHIPPABLE.includes(order.status) && !unpaidOnline && left.length > 0;

  const done = (reply) => {
    setNotice({ kind: "success", text: reply.message });
    onChanged(reply.order);
  };
  const booking = isBooking(order);

  useEffect(() => {
    if (!booking) return undefined;
    // onChanged reloads the order (and the list behind the dialog); the next render waits again if still booking.
    const timer = setTimeout(() => onChanged(order), BOOKING_POLL_MS);
    return () => clearTimeout(timer);
  }, [booking, order, onChanged]);

  return (
    <section aria-labelledby="order-shipments" className="adm-shipments">
      <h3 id="order-shipments">Shipments</h3>
      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      {(order.shipments ?? []).length === 0 && <p className="adm-muted">Nothing shipped yet.</p>}
      <ol className="adm-parcels">
        {(order.shipments ?? []).map((shipment, index) => (
          <Parcel key={shipment._id} order={order} shipment={shipment} number={index + 1} onDone={done}
            onError={(text) => setNotice({ kind: "error", text })} />
        ))}
      </ol>
      {canShip && !shipping && (
        <button type="button" className="adm-button" onClick={() => setShipping(true)}>Ship…</button>
      )}
      {canShip && shipping && (
        <ShipForm order={order} left={left} onCancel={() => setShipping(false)}
          onShipped={(reply) => { setShipping(false); done(reply); }} />
      )}
      {!canShip && left.length > 0 && order.status !== "cancelled" && unpaidOnline && (
        <p className="adm-muted">This online order is not paid yet: it can be shipped once the payment is received.</p>
      )}
    </section>
  );
}

function Parcel({ order, shipment, number, onDone, onError }) {
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  if (shipment.status === "booking" || shipment.status === "booking_failed") {
    return <BookingParcel order={order} shipment={shipment} number={number} onDone={onDone} onError={onError} />;
  }
  const finished = ["delivered", "received"].includes(shipment.status);

  const received = async () => {
    setBusy(true);
    try {
      onDone(await receiveParcel(order._id, shipment._id));
    } catch (failure) {
      onError(failure.message || "Could not mark the parcel received.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="adm-parcel">
      <p className="adm-parcel__head">
        <strong>Parcel {number}: {shipment.courier}</strong>{" "}
        AWB{" "}
        {shipment.trackingUrl
          ? <a href={shipment.trackingUrl} target="_blank" rel="noopener noreferrer">{shipment.awb}</a>
          : <code>{shipment.awb}</code>}
        {" · "}{SHIPMENT_EVENTS[shipment.status] ?? (shipment.status === "received" ? "Received back" : "Shipped")}
        {shipment.aggregator === "shiprocket" && <span className="adm-muted"> · Shiprocket</span>}
      </p>
      <p className="adm-muted adm-small">
        Shipped {formatDateTime(shipment.shippedAt)} · {shipment.packages} {shipment.packages === 1 ? "package" : "packages"} ·{" "}
        {(shipment.lines ?? []).map((line) => `${line.quantity} × ${line.title}`).join(", ")}
        {shipment.labelUrl && <> · <a href={shipment.labelUrl} target="_blank" rel="noopener noreferrer">Label</a></>}
      </p>
      {(shipment.events ?? []).length > 0 && (
        <ol className="adm-history">
          {shipment.events.map((event, index) => (
            <li key={`${event.at}-${index}`}>
              <span>{SHIPMENT_EVENTS[event.status] ?? event.status}</span>{" "}
              <span className="adm-muted">{formatDateTime(event.at)}{event.location && ` · ${event.location}`}
                {event.source === "webhook" ? " · Shiprocket" : ""}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="adm-parcel__actions">
        {!finished && !adding && (
          <button type="button" className="adm-button adm-button--secondary adm-button--small" onClick={() => setAdding(true)}>
            Add event<span className="sr-only"> to parcel {number}</span>
          </button>
        )}
        {shipment.status === "rto" && (
          <button type="button" className="adm-button adm-button--small" onClick={received} disabled={busy}>
            {busy ? "Saving…" : "Mark received back"}<span className="sr-only"> (parcel {number})</span>
          </button>
        )}
      </div>
      {adding && (
        <EventForm order={order} shipment={shipment} number={number} onCancel={() => setAdding(false)}
          onSaved={(reply) => { setAdding(false); onDone(reply); }} />
      )}
    </li>
  );
}

function BookingParcel({ order, shipment, number, onDone, onError }) {
  const [busy, setBusy] = useState(false);
  const failed = shipment.status === "booking_failed";

  const retry = async () => {
    setBusy(true);
    try {
      onDone(await retryBooking(order._id, shipment._id));
    } catch (failure) {
      onError(failure.message || "Could not book the parcel again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className={`adm-parcel${failed ? " adm-parcel--failed" : ""}`} data-status={shipment.status}>
      <p className="adm-parcel__head">
        <strong>Parcel {number}: Shiprocket</strong>{" · "}
        {failed ? "Booking failed" : <span role="status">Booking with Shiprocket…</span>}
      </p>
      <p className="adm-muted adm-small">
        Asked {formatDateTime(shipment.shippedAt)} · {(shipment.lines ?? []).map((line) => `${line.quantity} × ${line.title}`).join(", ")}
        {!failed && shipment.bookingAttempts > 1 && ` · try ${shipment.bookingAttempts}`}
      </p>
      {shipment.bookingError && (
        <p className={failed ? "adm-error" : "adm-muted adm-small"}>
          {failed ? "Shiprocket could not book it: " : "Last try: "}{shipment.bookingError}
        </p>
      )}
      {failed && (
        <div className="adm-parcel__actions">
          <button type="button" className="adm-button adm-button--small" onClick={retry} disabled={busy}>
            {busy ? "Booking…" : "Try booking again"}<span className="sr-only"> (parcel {number})</span>
          </button>
          <span className="adm-muted adm-small"> Its copies are free again: you may also ship them by hand.</span>
        </div>
      )}
    </li>
  );
}

function EventForm({ order, shipment, number, onCancel, onSaved }) {
  const [status, setStatus] = useState("in_transit");
  const [location, setLocation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const prefix = `event-${shipment._id}`;

  const save = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSaved(await addShipmentEvent(order._id, shipment._id, { status, location: location.trim() }));
    } catch (failure) {
      setError(failure.message || "Could not record the event.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="adm-form adm-parcel__form" onSubmit={save} aria-label={`New event for parcel ${number}`}>
      {error && <Alert kind="error" onDismiss={() => setError(null)}>{error}</Alert>}
      <div className="adm-field">
        <label htmlFor={`${prefix}-status`}>Event</label>
        <select id={`${prefix}-status`} value={status} onChange={(e) => setStatus(e.target.value)} disabled={busy}>
          {Object.entries(SHIPMENT_EVENTS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </div>
      <div className="adm-field">
        <label htmlFor={`${prefix}-location`}>Location (optional)</label>
        <input id={`${prefix}-location`} type="text" maxLength={120} value={location}
          onChange={(e) => setLocation(e.target.value)} disabled={busy} />
      </div>
      <p className="adm-hint">Delivered on every parcel completes the order (cash on delivery becomes paid).</p>
      <button type="submit" className="adm-button" disabled={busy}>{busy ? "Saving…" : "Record event"}</button>{" "}
      <button type="button" className="adm-button adm-button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
    </form>
  );
}

function ShipForm({ order, left, onCancel, onShipped }) {
  const couriers = useRequest(useCallback(({ signal }) => listCouriers({ signal }), []));
  const active = (couriers.data?.couriers ?? []).filter((courier) => courier.active);
  const [aggregator, setAggregator] = useState("manual");
  const [courier, setCourier] = useState("");
  const [awb, setAwb] = useState("");
  const [trackingUrl, setTrackingUrl] = useState("");
  const [packages, setPackages] = useState("1");
  const [copies, setCopies] = useState(() => Object.fromEntries(left.map((item) => [item.book, item.left])));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const manual = aggregator === "manual";

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    const lines = left.filter((item) => Number(copies[item.book]) > 0)
      .map((item) => ({ book: item.book, quantity: Number(copies[item.book]) }));
    if (lines.length === 0) {
      setError("Choose at least one book to put in this parcel.");
      return;
    }
    const everything = lines.length === left.length && lines.every((line, i) => line.quantity === left[i].left);
    const body = { aggregator, packages: Number(packages) || 1, ...(everything ? {} : { lines }) };
    if (manual) Object.assign(body, { courier, awb: awb.trim(), ...(trackingUrl.trim() ? { trackingUrl: trackingUrl.trim() } : {}) });
    setBusy(true);
    try {
      onShipped(await shipOrder(order._id, body));
    } catch (failure) {
      setError(failure.message || "Could not ship the order.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="adm-form adm-ship" onSubmit={submit} aria-labelledby="ship-title">
      <h4 id="ship-title">Ship</h4>
      {error && <Alert kind="error" onDismiss={() => setError(null)}>{error}</Alert>}
      {couriers.data?.shiprocket && (
        <fieldset className="adm-field">
          <legend>Book the parcel</legend>
          <label><input type="radio" name="aggregator" value="manual" checked={manual}
            onChange={() => setAggregator("manual")} /> By hand (I have the AWB)</label>
          <label><input type="radio" name="aggregator" value="shiprocket" checked={!manual}
            onChange={() => setAggregator("shiprocket")} /> Through Shiprocket (AWB, label and pickup)</label>
        </fieldset>
      )}
      {manual && (
        <>
          <div className="adm-field">
            <label htmlFor="ship-courier">Courier</label>
            <select id="ship-courier" value={courier} onChange={(e) => setCourier(e.target.value)} required disabled={busy}>
              <option value="">Choose a courier</option>
              {active.map((item) => <option key={item._id} value={item.name}>{item.name}</option>)}
            </select>
          </div>
          <div className="adm-field">
            <label htmlFor="ship-awb">AWB number</label>
            <input id="ship-awb" type="text" maxLength={40} value={awb} onChange={(e) => setAwb(e.target.value)}
              required disabled={busy} autoComplete="off" />
          </div>
          <div className="adm-field">
            <label htmlFor="ship-url">Tracking address (optional; the courier's own when empty)</label>
            <input id="ship-url" type="url" maxLength={500} value={trackingUrl} onChange={(e) => setTrackingUrl(e.target.value)}
              disabled={busy} />
          </div>
        </>
      )}
      <div className="adm-field">
        <label htmlFor="ship-packages">Packages</label>
        <input id="ship-packages" type="number" min={1} max={50} value={packages} onChange={(e) => setPackages(e.target.value)}
          disabled={busy} />
      </div>
      <fieldset className="adm-field adm-ship__lines">
        <legend>Copies in this parcel</legend>
        {left.map((item) => (
          <div key={item.book} className="adm-ship__line">
            <label htmlFor={`ship-copies-${item.book}`}>{item.name} <span className="adm-muted">({item.left} left)</span></label>
            <input id={`ship-copies-${item.book}`} type="number" min={0} max={item.left} value={copies[item.book]}
              onChange={(e) => setCopies({ ...copies, [item.book]: e.target.value })} disabled={busy} />
          </div>
        ))}
      </fieldset>
      <p className="adm-hint">The order becomes shipped once every copy is in a parcel; the customer is e-mailed the courier, AWB and tracking link.</p>
      {!manual && <p className="adm-hint">Shiprocket books the parcel in the background; this screen shows its AWB and label once it is booked.</p>}
      <button type="submit" className="adm-button" disabled={busy}>{busy ? "Shipping…" : "Ship parcel"}</button>{" "}
      <button type="button" className="adm-button adm-button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
    </form>
  );
}
