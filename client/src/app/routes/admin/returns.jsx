// /admin/returns: returns by status (product §7.10), and one return's detail with its next step: approve
// (pickup or self-ship), reject with a reason, receive (resaleable per book) or refund (the payout's reference
// for cash on delivery; online, the refund job).
import { useCallback, useEffect, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { listReturns, returnPhoto, updateReturn } from "../../../features/admin/api.js";
import { formatDate } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { Modal } from "../../../features/admin/components/modal.jsx";
import { AdminTable, FilterSelect, ListHead, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";
import { reasonLabel, returnStatusLabel } from "../../../features/returns/labels.js";

const STATUSES = ["requested", "approved", "received", "refund_pending", "refunded", "rejected"];
const BADGE = { requested: "pending", approved: "processing", received: "shipped", refund_pending: "shipped",
  refunded: "delivered", rejected: "cancelled" };
const rupees = (value) => `₹${Number(value).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function Badge({ status }) {
  return <span className={`adm-badge adm-badge--${BADGE[status] ?? "pending"}`}>{returnStatusLabel(status)}</span>;
}

function Photo({ photo, index }) {
  const [url, setUrl] = useState(null);
  useEffect(() => {
    const controller = new AbortController();
    let made = null;
    returnPhoto(photo.url, { signal: controller.signal })
      .then((blob) => { made = URL.createObjectURL(blob); setUrl(made); })
      .catch(() => {});
    return () => { controller.abort(); if (made) URL.revokeObjectURL(made); };
  }, [photo.url]);
  return url ? <a href={url} target="_blank" rel="noreferrer"><img src={url} alt={`Photo ${index + 1} sent by the shopper`} width="160" /></a>
    : <span className="adm-muted">Loading photo {index + 1}…</span>;
}

// A return's line: a book's own, or a book inside a kit line (kitLine), possibly the same book.
const lineKey = (line) => `${line.kitLine ?? ""}-${line.book}`;

function ReturnDetail({ item, onClose, onSaved }) {
  const [method, setMethod] = useState("pickup");
  const [note, setNote] = useState("");
  const [resaleable, setResaleable] = useState(() => Object.fromEntries(item.lines.map((line) => [lineKey(line), true])));
  const [reference, setReference] = useState("");
  const [error, setError] = useState(null);
  const [saving, setSaving] = useState(false);
  const cash = item.order.paymentMethod === "cod";

  async function take(status) {
    setSaving(true);
    setError(null);
    const body = { status, note: note.trim() };
    if (status === "approved") body.method = method;
    if (status === "received") {
      body.lines = item.lines.map((line) => ({ book: line.book, ...(line.kitLine ? { kitLine: line.kitLine } : {}),
        resaleable: Boolean(resaleable[lineKey(line)]) }));
    }
    if (status === "refunded" && cash) body.payoutReference = reference.trim();
    try {
      const reply = await updateReturn(item._id, body);
      onSaved(reply);
    } catch (failure) {
      setError(failure.message);
    } finally {
      setSaving(false);
    }
  }

  const details = item.refundDetails;
  return (
    <Modal title={`Return for order ${item.order.orderNumber}`} onClose={onClose}>
      {error && <Alert kind="error">{error}</Alert>}
      <dl className="adm-dl">
        <dt>Status</dt><dd><Badge status={item.status} /></dd>
        <dt>Shopper</dt><dd>{item.order.name} ({item.order.email})</dd>
        <dt>Books</dt>
        <dd>
          <ul>{item.lines.map((line) => (
            <li key={lineKey(line)}>{line.quantity} × {line.title} — {reasonLabel(line.reason)}
              {line.resaleable != null && (line.resaleable ? " (back in stock)" : " (not resaleable)")}</li>
          ))}</ul>
        </dd>
        {item.note && <><dt>Shopper's note</dt><dd>{item.note}</dd></>}
        <dt>Refund</dt>
        <dd>
          {rupees(item.refundAmount)}{item.shippingDeducted > 0 && ` (less ${rupees(item.shippingDeducted)} shipping)`}{" "}
          {item.refundRoute === "razorpay" ? "through Razorpay" : `to ${item.refundTo}`}
          {item.payoutReference && `, reference ${item.payoutReference}`}
          {item.refundError && <span className="adm-muted"> Last error: {item.refundError}</span>}
        </dd>
        {details && (
          <>
            <dt>Pay out to</dt>
            <dd>{details.upi ? `UPI ${details.upi}` : `${details.holder}, account ${details.accountNumber}, IFSC ${details.ifsc}`}</dd>
          </>
        )}
        {item.method && <><dt>Method</dt><dd>{item.method === "pickup" ? "Pickup" : "Self-ship"}</dd></>}
        {item.adminNote && <><dt>Our note</dt><dd>{item.adminNote}</dd></>}
      </dl>
      {item.photos.length > 0 && (
        <div className="adm-actions" aria-label="Photos">{item.photos.map((photo, index) => <Photo key={photo._id} photo={photo} index={index} />)}</div>
      )}

      {["requested", "approved", "received"].includes(item.status) && (
        <form onSubmit={(event) => event.preventDefault()} aria-label="Next step">
          {item.status === "requested" && (
            <fieldset className="adm-field">
              <legend>How the books come back</legend>
              <label><input type="radio" name="return-method" checked={method === "pickup"} onChange={() => setMethod("pickup")} /> Pickup</label>{" "}
              <label><input type="radio" name="return-method" checked={method === "self-ship"} onChange={() => setMethod("self-ship")} /> Self-ship</label>
            </fieldset>
          )}
          {item.status === "approved" && (
            <fieldset className="adm-field">
              <legend>Resaleable copies go back in stock</legend>
              {item.lines.map((line) => (
                <label key={lineKey(line)}>
                  <input type="checkbox" checked={Boolean(resaleable[lineKey(line)])}
                    onChange={(event) => setResaleable({ ...resaleable, [lineKey(line)]: event.target.checked })} />{" "}
                  {line.title} resaleable
                </label>
              ))}
            </fieldset>
          )}
          {item.status === "received" && cash && (
            <div className="adm-field">
              <label htmlFor="return-payout-reference">Payout reference (UPI or bank transfer)</label>
              <input id="return-payout-reference" value={reference} maxLength={60} onChange={(event) => setReference(event.target.value)} />
            </div>
          )}
          <div className="adm-field">
            <label htmlFor="return-note">Note to the shopper {item.status !== "received" && "(the reason, to reject)"}</label>
            <textarea id="return-note" rows={2} maxLength={500} value={note} onChange={(event) => setNote(event.target.value)} />
          </div>
          <p className="adm-actions">
            {item.status === "requested" && <button type="button" className="adm-button" disabled={saving} onClick={() => take("approved")}>Approve</button>}
            {item.status === "approved" && <button type="button" className="adm-button" disabled={saving} onClick={() => take("received")}>Mark received</button>}
            {item.status === "received" && (
              <button type="button" className="adm-button" disabled={saving} onClick={() => take("refunded")}>
                {cash ? "Mark refunded" : "Refund through Razorpay"}
              </button>
            )}
            {item.status !== "received" && (
              <button type="button" className="adm-button adm-button--secondary" disabled={saving} onClick={() => take("rejected")}>Reject</button>
            )}
          </p>
        </form>
      )}
    </Modal>
  );
}

export function ManageReturns() {
  const listParams = useListParams({ status: STATUSES });
  const { page, filters: { status } } = listParams;
  const [open, setOpen] = useState(null);
  const [notice, setNotice] = useState(null);
  const returns = useRequest(useCallback(({ signal }) => listReturns({ page, status, signal }), [page, status]));

  const saved = (reply) => {
    setNotice({ kind: "success", text: `${reply.message} (order ${reply.returnRequest.order.orderNumber})` });
    setOpen(reply.returnRequest);
    returns.retry();
  };

  const columns = [
    { key: "order", header: "Order", label: false, className: "adm-card-head", cell: (item) => item.order.orderNumber },
    { key: "shopper", header: "Shopper", className: "adm-break", cell: (item) => item.order.name },
    { key: "books", header: "Books", cell: (item) => item.lines.map((line) => `${line.quantity} × ${line.title}`).join(", ") },
    { key: "refund", header: "Refund", cell: (item) => `${rupees(item.refundAmount)} (${item.refundRoute === "razorpay" ? "online" : item.refundRoute.toUpperCase()})` },
    { key: "status", header: "Status", cell: (item) => <Badge status={item.status} /> },
    { key: "date", header: "Asked", className: "adm-nowrap", cell: (item) => formatDate(item.createdAt) },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions", cell: (item) => (
      <button type="button" className="adm-button adm-button--small adm-button--secondary"
        aria-label={`Open the return for order ${item.order.orderNumber}`} onClick={() => setOpen(item)}>Open</button>
    ) },
  ];

  const list = returns.data;
  const total = list?.totalReturns ?? 0;
  return (
    <>
      <title>Returns — Bookstore Admin</title>
      <ListHead title="Returns" count={list ? total : null} one="return" filtered={status && returnStatusLabel(status).toLowerCase()}>
        <FilterSelect list={listParams} name="status" id="return-status-filter" label="Status" inline
          options={STATUSES.map((value) => [value, returnStatusLabel(value)])} />
      </ListHead>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      <ListRequest request={returns} errorTitle="Failed to fetch returns" loadingLabel="Loading returns…">
        {(data) => (
          <AdminTable label="Returns" columns={columns} rows={data.returns} busy={returns.status === "loading"}
            rowProps={(item) => ({ "data-return-id": item._id })}
            empty={{ title: "No returns", text: status ? "No return has this status." : "Shoppers' return requests appear here." }}
            list={listParams} pages={data.pagination} pagerLabel="Return pages" />
        )}
      </ListRequest>
      {open && <ReturnDetail key={`${open._id}-${open.status}`} item={open} onClose={() => setOpen(null)} onSaved={saved} />}
    </>
  );
}
