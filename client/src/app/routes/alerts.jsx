// My Alerts (/alerts): the signed-in shopper's "Notify me" alerts (product §3.10), each with its book, what
// it waits for and where it stands, and a button that cancels it.
import { useState } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Banner, ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { cancelMyAlert, myAlerts } from "../../features/alerts/api.js";
import { formatDate } from "../../features/orders/labels.js";
import { RequireSignIn } from "./login.jsx";

const KINDS = { "back-in-stock": "When it is back in stock", "new-edition": "When a new edition comes out" };
const STATES = {
  pending: "Waiting for you to confirm it from the e-mail we sent",
  active: "Active: we will e-mail you once",
  sent: "Sent: we have e-mailed you",
};

function AlertItem({ alert, onCancelled, onMessage }) {
  const [busy, setBusy] = useState(false);
  const kind = KINDS[alert.kind] ?? alert.kind;

  async function cancel() {
    setBusy(true);
    try {
      await cancelMyAlert(alert._id);
      onCancelled(alert._id);
      onMessage({ tone: "success", text: `Your alert for '${alert.bookTitle}' is cancelled.` });
    } catch (error) {
      onMessage({ tone: "error", text: error.message || "Failed to cancel the alert." });
      setBusy(false);
    }
  }

  return (
    <li className="my-alert">
      <h2><Link to={paths.book(alert.bookId)}>{alert.bookTitle}</Link></h2>
      <dl className="my-alert__facts">
        <div><dt>Tell me</dt><dd>{kind}</dd></div>
        <div><dt>State</dt><dd>{STATES[alert.status] ?? alert.status}</dd></div>
        <div><dt>Asked on</dt><dd>{formatDate(alert.createdAt)}</dd></div>
      </dl>
      <button type="button" className="button button--secondary button--small" onClick={cancel} disabled={busy}
        aria-label={`Cancel alert for ${alert.bookTitle} (${kind.toLowerCase()})`}>
        Cancel alert
      </button>
    </li>
  );
}

function AlertsScreen() {
  usePageMeta("My Alerts");
  const { status, data, error, retry } = useRequest(myAlerts);
  const [cancelled, setCancelled] = useState([]);
  const [message, setMessage] = useState(null);
  const alerts = (data ?? []).filter((alert) => !cancelled.includes(alert._id));

  return (
    <div className="container page">
      <h1>My Alerts</h1>
      <p>The books we will e-mail you about, once, when they are back in stock or a new edition comes out.</p>
      {message && (
        <Banner key={message.text} tone={message.tone} onDismiss={() => setMessage(null)} focus>{message.text}</Banner>
      )}
      {status === "loading" && <Loading label="Loading your alerts…" />}
      {status === "error" && <ErrorNotice title="Failed to fetch your alerts." error={error} retry={retry} />}
      {status === "success" && alerts.length === 0 && (
        <div className="empty empty--large">
          <p className="empty__title">You have no alerts</p>
          <p>On a book's page, ask to be told when it is back in stock or when a new edition comes out.</p>
          <Link className="button" to={paths.books()}>Browse Books</Link>
        </div>
      )}
      {status === "success" && alerts.length > 0 && (
        <ul className="my-alerts">
          {alerts.map((alert) => (
            <AlertItem key={alert._id} alert={alert} onMessage={setMessage}
              onCancelled={(id) => setCancelled((ids) => [...ids, id])} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function MyAlerts() {
  return <RequireSignIn><AlertsScreen /></RequireSignIn>;
}

export { MyAlerts as Component };
