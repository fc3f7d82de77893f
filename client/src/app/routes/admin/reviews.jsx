// /admin/reviews: buyers' reviews, newest first, by status; hide one with a reason, or publish it again.
import { useCallback, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { listReviews, moderateReview } from "../../../features/admin/api.js";
import { formatDate } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { Modal } from "../../../features/admin/components/modal.jsx";
import { AdminTable, FilterSelect, ListHead, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";

const STATUSES = ["published", "hidden"];
const statusText = (status) => (status === "hidden" ? "Hidden" : "Published");

function HideDialog({ review, onHide, onClose, saving, error }) {
  const [reason, setReason] = useState("");
  return (
    <Modal title={`Hide the review by ${review.reviewer}`} onClose={onClose} size="narrow">
      <form onSubmit={(event) => { event.preventDefault(); onHide(reason); }}>
        {error && <Alert kind="error">{error}</Alert>}
        <div className="adm-field">
          <label htmlFor="review-hide-reason">Reason (kept with the review and in the audit log)</label>
          <textarea id="review-hide-reason" value={reason} maxLength={500} rows={3} required
            onChange={(event) => setReason(event.target.value)} />
        </div>
        <p className="adm-actions">
          <button type="submit" className="adm-button" disabled={saving}>Hide review</button>
          <button type="button" className="adm-button adm-button--secondary" onClick={onClose}>Cancel</button>
        </p>
      </form>
    </Modal>
  );
}

export function ManageReviews() {
  const listParams = useListParams({ status: STATUSES });
  const { page, filters: { status } } = listParams;
  const [hiding, setHiding] = useState(null);
  const [saving, setSaving] = useState(null);
  const [dialogError, setDialogError] = useState(null);
  const [notice, setNotice] = useState(null);
  const reviews = useRequest(useCallback(({ signal }) => listReviews({ page, status, signal }), [page, status]));

  const moderate = async (review, next, reason) => {
    setSaving(review._id);
    setNotice(null);
    setDialogError(null);
    try {
      const reply = await moderateReview(review._id, next, reason);
      setNotice({ kind: "success", text: `${reply.message} (${review.reviewer} on “${review.book.title}”)` });
      setHiding(null);
      reviews.retry();
    } catch (error) {
      if (hiding) setDialogError(error.message);
      else setNotice({ kind: "error", text: `Failed to update the review. ${error.message ?? ""}`.trim() });
    } finally {
      setSaving(null);
    }
  };

  const columns = [
    { key: "book", header: "Book", label: false, className: "adm-card-head",
      cell: (review) => <span className="adm-book-title">{review.book.title}</span> },
    { key: "reviewer", header: "Reviewer", className: "adm-break", cell: (review) => (
      <>
        {review.reviewer}
        <span className="adm-muted adm-small"> {review.reviewerEmail}</span>
      </>
    ) },
    { key: "stars", header: "Stars", cell: (review) => (
      <span aria-label={`${review.stars} out of 5 stars`} role="img">{"★".repeat(review.stars)}{"☆".repeat(5 - review.stars)}</span>
    ) },
    { key: "review", header: "Review", cell: (review) => (
      <div className="adm-review-text">
        {review.title && <strong>{review.title}</strong>}
        {review.text && <p className="adm-small">{review.text}</p>}
        {review.status === "hidden" && review.hiddenReason && <p className="adm-small adm-muted">Hidden: {review.hiddenReason}</p>}
      </div>
    ) },
    { key: "status", header: "Status", cell: (review) => (
      <span className={`adm-badge adm-badge--review-${review.status}`}>{statusText(review.status)}</span>
    ) },
    { key: "date", header: "Date", className: "adm-nowrap", cell: (review) => formatDate(review.createdAt) },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions", cell: (review) => (
      review.status === "published" ? (
        <button type="button" className="adm-button adm-button--small adm-button--secondary" disabled={saving === review._id}
          aria-label={`Hide the review by ${review.reviewer} of ${review.book.title}`}
          onClick={() => { setDialogError(null); setHiding(review); }}>Hide</button>
      ) : (
        <button type="button" className="adm-button adm-button--small adm-button--secondary" disabled={saving === review._id}
          aria-label={`Publish the review by ${review.reviewer} of ${review.book.title}`}
          onClick={() => moderate(review, "published")}>Publish</button>
      )
    ) },
  ];

  const list = reviews.data;
  const total = list?.pagination?.totalReviews ?? 0;
  return (
    <>
      <title>Reviews — Bookstore Admin</title>
      <ListHead title="Reviews" count={list ? total : null} one="review" filtered={status}>
        <FilterSelect list={listParams} name="status" id="review-status-filter" label="Status" inline
          options={STATUSES.map((value) => [value, statusText(value)])} />
      </ListHead>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      <ListRequest request={reviews} errorTitle="Failed to fetch reviews" loadingLabel="Loading reviews…">
        {(data) => (
          <AdminTable label="Reviews" columns={columns} rows={data.reviews} busy={reviews.status === "loading"}
            rowProps={(review) => ({ "data-review-id": review._id })}
            empty={{ title: "No reviews", text: status ? "No review has this status." : "Buyers' reviews appear here as they are written." }}
            list={listParams} pages={data.pagination} pagerLabel="Review pages" />
        )}
      </ListRequest>

      {hiding && (
        <HideDialog review={hiding} saving={saving === hiding._id} error={dialogError}
          onHide={(reason) => moderate(hiding, "hidden", reason)} onClose={() => setHiding(null)} />
      )}
    </>
  );
}
