// /admin/contacts: messages from the contact form, their status, and each message in full.
import { useCallback, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { listContacts, updateContactStatus } from "../../../features/admin/api.js";
import { CONTACT_STATUSES, CONTACT_SUBJECTS, formatDate, formatDateTime, statusLabel } from "../../../features/admin/format.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { EmailText } from "../../../features/admin/components/email-text.jsx";
import { Modal } from "../../../features/admin/components/modal.jsx";
import { ContactStatusBadge } from "../../../features/admin/components/status-badge.jsx";
import { AdminTable, FilterSelect, ListHead, ListRequest } from "../../../features/admin/components/admin-list.jsx";
import { useListParams } from "../../../features/admin/use-list-params.js";

function ContactStatusSelect({ id, contact, onChange, disabled, label }) {
  return (
    <select id={id} value={contact.status} onChange={(event) => onChange(event.target.value)} disabled={disabled}
      aria-label={label} className="adm-select-small">
      {CONTACT_STATUSES.map((status) => <option key={status} value={status}>{statusLabel(status)}</option>)}
    </select>
  );
}

export function ContactMessages() {
  const listParams = useListParams({ status: CONTACT_STATUSES });
  const { page, filters: { status } } = listParams;
  const [viewing, setViewing] = useState(null);
  const [saving, setSaving] = useState(null); // id being saved
  const [notice, setNotice] = useState(null);
  const contacts = useRequest(useCallback(({ signal }) => listContacts({ page, status, signal }), [page, status]));

  const setStatus = async (contact, next) => {
    setSaving(contact._id);
    setNotice(null);
    try {
      const reply = await updateContactStatus(contact._id, next);
      setNotice({ kind: "success", text: `Message from ${contact.name} is now ${statusLabel(next).toLowerCase()}.` });
      if (viewing?._id === contact._id) setViewing(reply.contact ?? { ...contact, status: next });
      contacts.retry();
    } catch (error) {
      setNotice({ kind: "error", text: `Failed to update contact status. ${error.message ?? ""}`.trim() });
    } finally {
      setSaving(null);
    }
  };

  const columns = [
    { key: "name", header: "Name", label: false, className: "adm-card-head", cell: (contact) => (
      <>
        <span className="adm-book-title">{contact.name}</span>
        {contact.phone && <span className="adm-muted adm-small">{contact.phone}</span>}
      </>
    ) },
    { key: "email", header: "Email", className: "adm-break",
      cell: (contact) => <a href={`mailto:${contact.email}`}><EmailText email={contact.email} /></a> },
    { key: "subject", header: "Subject", cell: (contact) => CONTACT_SUBJECTS[contact.subject] ?? contact.subject },
    { key: "status", header: "Status", cell: (contact) => <ContactStatusBadge status={contact.status} /> },
    { key: "date", header: "Date", className: "adm-nowrap", cell: (contact) => formatDate(contact.createdAt) },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions", cell: (contact) => (
      <>
        <button type="button" className="adm-button adm-button--small adm-button--secondary"
          aria-label={`View message from ${contact.name}`} onClick={() => setViewing(contact)}>View</button>
        <ContactStatusSelect contact={contact} label={`Status of the message from ${contact.name}`}
          disabled={saving === contact._id} onChange={(next) => setStatus(contact, next)} />
      </>
    ) },
  ];

  const list = contacts.data;
  const total = list?.pagination?.totalContacts ?? 0;
  return (
    <>
      <title>Contact Messages — Bookstore Admin</title>
      <ListHead title="Contact Messages" count={list ? total : null} one="message" filtered={status && statusLabel(status).toLowerCase()}>
        <FilterSelect list={listParams} name="status" id="contact-status-filter" label="Status" inline
          options={CONTACT_STATUSES.map((value) => [value, statusLabel(value)])} />
      </ListHead>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}
      <ListRequest request={contacts} errorTitle="Failed to fetch contact submissions" loadingLabel="Loading messages…">
        {(data) => (
          <AdminTable label="Messages" columns={columns} rows={data.contacts} busy={contacts.status === "loading"}
            rowProps={(contact) => ({ "data-contact-id": contact._id })}
            empty={{ title: "No messages",
              text: status ? "No message has this status." : "Messages sent from the contact page appear here." }}
            list={listParams} pages={data.pagination} pagerLabel="Message pages" />
        )}
      </ListRequest>

      {viewing && (
        <Modal title={`Message from ${viewing.name}`} onClose={() => setViewing(null)}>
          <dl className="adm-dl">
            <dt>Name</dt><dd>{viewing.name}</dd>
            <dt>Email</dt><dd><a href={`mailto:${viewing.email}`}>{viewing.email}</a></dd>
            <dt>Phone</dt><dd>{viewing.phone ? <a href={`tel:${viewing.phone}`}>{viewing.phone}</a> : "—"}</dd>
            <dt>Subject</dt><dd>{CONTACT_SUBJECTS[viewing.subject] ?? viewing.subject}</dd>
            <dt>Received</dt><dd>{formatDateTime(viewing.createdAt)}</dd>
            <dt>Status</dt><dd><ContactStatusBadge status={viewing.status} /></dd>
          </dl>
          <h3 className="adm-message__title">Message</h3>
          <p className="adm-message">{viewing.message}</p>
          <div className="adm-field adm-field--inline">
            <label htmlFor="contact-status">Set status</label>
            <ContactStatusSelect id="contact-status" contact={viewing} disabled={saving === viewing._id}
              onChange={(next) => setStatus(viewing, next)} />
          </div>
          <p className="adm-actions">
            <a className="adm-button adm-button--secondary"
              href={`mailto:${viewing.email}?subject=${encodeURIComponent(`Re: ${CONTACT_SUBJECTS[viewing.subject] ?? viewing.subject}`)}`}>
              Reply by e-mail
            </a>
          </p>
        </Modal>
      )}
    </>
  );
}
