// /admin/newsletter: the newsletter's confirmed subscribers, paged, and a CSV export of them all.
import { useCallback, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { exportSubscribers, listSubscribers } from "../../../features/admin/api.js";
import { formatDateTime } from "../../../features/admin/format.js";
import { download } from "../../../features/admin/download.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { EmailText } from "../../../features/admin/components/email-text.jsx";
import { AdminTable, ListHead, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";

const columns = [
  { key: "email", header: "E-mail", label: false, className: "adm-card-head adm-break",
    cell: (subscriber) => <span className="adm-book-title"><EmailText email={subscriber.email} /></span> },
  // The server lists confirmed subscribers only: pending and unsubscribed addresses never reach this list.
  { key: "status", header: "Status", cell: () => <span className="adm-badge adm-badge--delivered">Confirmed</span> },
  { key: "signedUp", header: "Signed up", className: "adm-nowrap", cell: (subscriber) => formatDateTime(subscriber.createdAt) },
  { key: "confirmed", header: "Confirmed", className: "adm-nowrap", cell: (subscriber) => formatDateTime(subscriber.confirmedAt) },
];

export function Newsletter() {
  const listParams = useListParams();
  const { page } = listParams;
  const [notice, setNotice] = useState(null);
  const [exporting, setExporting] = useState(false);
  const subscribers = useRequest(useCallback(({ signal }) => listSubscribers({ page, signal }), [page]));

  const exportCsv = async () => {
    setExporting(true);
    try {
      download(await exportSubscribers(), `newsletter-${new Date().toISOString().slice(0, 10)}.csv`);
      setNotice({ kind: "success", text: "The CSV export has been downloaded." });
    } catch (error) {
      setNotice({ kind: "error", text: `The export failed. ${error.message ?? ""}`.trim() });
    } finally {
      setExporting(false);
    }
  };

  const list = subscribers.data;
  const total = list?.pagination?.totalSubscribers ?? 0;
  return (
    <>
      <title>Newsletter — Bookstore Admin</title>
      <ListHead title="Newsletter" count={list ? total : null} one="confirmed subscriber">
        <button type="button" className="adm-button adm-button--secondary" onClick={exportCsv} disabled={exporting || total === 0}>
          {exporting ? "Preparing CSV…" : "Export CSV"}
        </button>
      </ListHead>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      <ListRequest request={subscribers} errorTitle="Failed to fetch subscribers" loadingLabel="Loading subscribers…">
        {(data) => (
          <AdminTable label="Subscribers" columns={columns} rows={data.subscribers} busy={subscribers.status === "loading"}
            rowProps={(subscriber) => ({ "data-subscriber": subscriber.email })}
            empty={{ title: "No subscribers yet",
              text: "Addresses appear here once their owners confirm the subscription from the e-mail they were sent." }}
            list={listParams} pages={data.pagination} pagerLabel="Subscriber pages" />
        )}
      </ListRequest>
    </>
  );
}
