"""Outgoing e-mail through an outbox: queued in the transaction of the change it reports, sent by a job.

`queue` writes the mail into `mail_outbox` with the caller's change and asks for the `send_mail` job
once that transaction commits. No request talks SMTP. The job claims the mail first (a conditional
UPDATE), so two consumers never send it twice; a failure backs off, and the periodic sweep finds
mails whose job was lost or whose claim ran out (a consumer killed mid-send). SMTP when MAIL_SERVER
is set, otherwise the log.
"""
import hashlib
import html
import logging
import re
import smtplib
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from flask import current_app, has_request_context, request
from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy import text as sql

from bookstore import jobs
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Order, OutboxMail, utcnow
from bookstore.services import account_links, bills, delivery, order_links

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8
SMTP_TIMEOUT_SECONDS = 10
# A mail still unsent this long after it was due has lost its job: the sweep enqueues it again.
SWEEP_GRACE_SECONDS = 60


def shop_url(path: str) -> str:
    """An absolute link to a page of the shop (e-mails, canonical URLs, sitemaps, Google's redirect URI).

    PUBLIC_URL, which production requires; elsewhere the address of this request, whose host Flask has
    checked against TRUSTED_HOSTS (a forged Host is refused before any link is made).
    """
    base = current_app.config.get("PUBLIC_URL") or (request.host_url if has_request_context() else "")
    return (base or "http://127.0.0.1:8000/").rstrip("/") + path


# A link's credential is kept in the outbox as {{link:<kind>:<value>}} and made when the mail is sent, so the
# outbox (kept MAIL_KEEP_SENT_DAYS for support) never holds a live token: each kind's value is what the row may
# keep (an id, a seed, the addresses it names), and the token is signed or derived from it with the app's secret.
_TOKEN_PLACEHOLDER = re.compile(r"\{\{link:([a-z-]+):([A-Za-z0-9_.-]+)\}\}")


def _token_makers() -> dict:
    """kind -> the function making a link's token from the placeholder's value (imported here: those modules
    queue their mails through this one)."""
    from bookstore.services import alerts, newsletter
    return {"order": order_links.token_for, "account": account_links.token_of,
            "undo-email": account_links.undo_token, "alert": alerts.token_from,
            "newsletter": newsletter.confirm_token_of, "unsubscribe": newsletter.unsubscribe_token}


def token_placeholder(kind: str, value: str) -> str:
    """What the outbox keeps in place of a link's token: `order` with an order's `_id`, `account` with a seed,
    `undo-email`, `alert`, `newsletter` and `unsubscribe` with the value their module gives."""
    return "{{link:%s:%s}}" % (kind, value)


def render_tokens(text: str) -> str:
    """The mail's text with each token placeholder replaced by a live token (at send time)."""
    makers = _token_makers()

    def token(found: re.Match) -> str:
        kind, value = found.groups()
        return makers[kind](value) if kind in makers else found.group(0)
    return _TOKEN_PLACEHOLDER.sub(token, text)


def order_page_link(order: Order) -> str:
    """The guest order page's link for a mail; its token is made when the mail is sent."""
    return shop_url(f"/orders/{order.public_id}?token={token_placeholder('order', order.public_id)}")


def bill_link(order: Order) -> str:
    """The bill's download link for a mail; its token is made when the mail is sent."""
    return shop_url(f"/api/orders/{order.public_id}/bill?token={token_placeholder('order', order.public_id)}")


def queue(to: str, subject: str, text: str, bill_of: Order | None = None,
          unsubscribe_url: str | None = None, kind: str | None = None) -> OutboxMail:
    """Add an e-mail to the outbox; it is committed (or dropped) with the caller's transaction and
    sent by a job after the commit. `bill_of`: the order whose bill of supply goes with it as a PDF. A
    newsletter mail names its one-click unsubscribe URL (RFC 8058). `kind`: CONFIRMATION for a double
    opt-in mail (see `may_confirm`)."""
    mail = OutboxMail(to_address=to, subject=subject, body=text, bill_order_id=bill_of.id if bill_of else None,
                      unsubscribe_url=unsubscribe_url, kind=kind)
    db.session.add(mail)
    db.session.flush()
    jobs.after_commit(tasks.send_mail, mail.id)
    return mail


# Double opt-in mails (alerts, newsletter, a new account address) go to addresses nobody has proven yet, so
# anyone can aim them at a stranger: each address gets at most this many an hour, all kinds together.
CONFIRMATION = "confirmation"
CONFIRMATIONS_PER_HOUR = 3


def _lock_recipient(address: str) -> None:
    """Hold the address until the caller's transaction ends, so two workers cannot both pass the cap."""
    if db.session.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(b"confirmation:" + address.encode()).digest()[:8], "big", signed=True)
        db.session.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    else:
        # SQLite: a write (even of no row) takes the database's write lock, which serialises the count.
        db.session.execute(update(OutboxMail).where(OutboxMail.id == -1).values(kind=None)
                           .execution_options(synchronize_session=False))


def may_confirm(address: str) -> bool:
    """Whether one more confirmation mail may go to the address this hour (the database counts, so the cap
    holds across workers and servers). Holds the address until the caller commits."""
    _lock_recipient(address)
    since = utcnow() - timedelta(hours=1)
    sent = db.session.scalar(select(func.count(OutboxMail.id)).where(
        OutboxMail.to_address == address, OutboxMail.kind == CONFIRMATION, OutboxMail.created_at > since))
    if sent >= CONFIRMATIONS_PER_HOUR:
        log.warning("Confirmation mail to %s not sent: %d this hour already", address, sent)
        return False
    return True


def _claim(mail_id: int) -> bool:
    """Take the mail for this consumer: unsent, under the attempt limit, nobody else sending it."""
    now = utcnow()
    claimed = db.session.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id, OutboxMail.sent_at.is_(None), OutboxMail.attempts < MAX_ATTEMPTS,
               or_(OutboxMail.claimed_until.is_(None), OutboxMail.claimed_until < now))
        .values(claimed_until=now + timedelta(seconds=current_app.config["MAIL_CLAIM_SECONDS"]),
                attempts=OutboxMail.attempts + 1)
        .execution_options(synchronize_session=False)
    ).rowcount == 1
    db.session.commit()
    return claimed


def send_one(mail_id: int) -> bool:
    """Send one queued mail unless it was sent or is being sent; True when this call sent it."""
    if not _claim(mail_id):
        return False
    mail = db.session.get(OutboxMail, mail_id)
    if mail is None:
        return False  # deleted meanwhile (an operator cleaning up): nothing to send
    try:
        _transmit(mail)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("Could not send e-mail %s to %s: %s", mail.id, mail.to_address, error)
        _record(mail_id, last_error=str(error)[:300], claimed_until=None,
                next_attempt_at=utcnow() + timedelta(seconds=retry_delay(mail.attempts)))
        return False
    _record(mail_id, sent_at=utcnow(), last_error="", claimed_until=None)
    return True


def _record(mail_id: int, **values) -> None:
    """Write the outcome by id: a row deleted meanwhile is no error, it simply has nothing to record."""
    db.session.execute(update(OutboxMail).where(OutboxMail.id == mail_id).values(**values)
                       .execution_options(synchronize_session=False))
    db.session.commit()


def retry_delay(attempts: int) -> int:
    """Seconds before the next try after `attempts` failures: 1, 2, 4 ... times MAIL_RETRY_SECONDS."""
    return current_app.config["MAIL_RETRY_SECONDS"] * 2 ** (attempts - 1)


def seconds_until_retry(mail_id: int) -> int | None:
    """When a failed mail may be tried again, or None when it is sent, claimed or out of attempts."""
    mail = db.session.get(OutboxMail, mail_id)
    if mail is None or mail.sent_at is not None or mail.attempts >= MAX_ATTEMPTS or mail.claimed_until:
        return None
    next_at = mail.next_attempt_at if mail.next_attempt_at.tzinfo else mail.next_attempt_at.replace(
        tzinfo=utcnow().tzinfo)
    return max(0, int((next_at - utcnow()).total_seconds()) + 1)


def due_ids(limit: int = 500, grace_seconds: int = SWEEP_GRACE_SECONDS) -> list[int]:
    """Unsent mails a sweep should hand to a job, oldest first: those whose sender's claim ran out
    (it died mid-send), and unclaimed ones due for `grace_seconds` (their job was lost; younger ones
    are left to the job that is still queued)."""
    now = utcnow()
    return list(db.session.scalars(
        select(OutboxMail.id).where(
            OutboxMail.sent_at.is_(None), OutboxMail.attempts < MAX_ATTEMPTS,
            or_(OutboxMail.claimed_until < now,
                and_(OutboxMail.claimed_until.is_(None),
                     OutboxMail.next_attempt_at <= now - timedelta(seconds=grace_seconds))))
        .order_by(OutboxMail.id).limit(limit)))


def send_pending(limit: int = 100) -> tuple[int, int]:
    """Send the due mails now, in this process (`flask send-mail`); returns (sent, not sent)."""
    ids = due_ids(limit, grace_seconds=0)
    sent = sum(send_one(mail_id) for mail_id in ids)
    return sent, len(ids) - sent


_LINK = re.compile(r"https?://[^\s<>\"]+")


def footer() -> tuple[str, str]:
    """The shop's name and address under every mail (the seller of the shop settings): text and HTML."""
    values = delivery.settings()
    name, address, site = values["seller_name"], values["seller_address"], shop_url("/")
    text = f"\n\n-- \n{name}\n{address}\n{site}\n"
    markup = (f'<hr style="border:0;border-top:1px solid #ddd;margin:24px 0 12px">'
              f'<p style="color:#555;font-size:13px;margin:0">{html.escape(name)}<br>{html.escape(address)}<br>'
              f'<a href="{html.escape(site)}">{html.escape(site)}</a></p>')
    return text, markup


def as_html(text: str) -> str:
    """The plain text as simple HTML: paragraphs at blank lines, line breaks kept, links made clickable."""
    def paragraph(block: str) -> str:
        escaped = html.escape(block)
        linked = _LINK.sub(lambda found: f'<a href="{found.group(0)}">{found.group(0)}</a>', escaped)
        return f'<p style="margin:0 0 12px">{linked.replace(chr(10), "<br>")}</p>'
    return "".join(paragraph(block) for block in re.split(r"\n\s*\n", text.strip()) if block.strip())


def _message(mail: OutboxMail) -> EmailMessage:
    """The mail as sent: a plain-text and an HTML part with the shop's footer, and the bill when it has one."""
    config = current_app.config
    message = EmailMessage()
    message["From"] = config["MAIL_DEFAULT_SENDER"]
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    # One Message-ID per outbox row: a resend after a lost claim is recognisably the same mail.
    message["Message-ID"] = make_msgid(idstring=f"outbox{mail.id}", domain="bookstore")
    if mail.unsubscribe_url:
        # RFC 8058: mail programs show an Unsubscribe button that POSTs "List-Unsubscribe=One-Click" to the URL.
        message["List-Unsubscribe"] = f"<{render_tokens(mail.unsubscribe_url)}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    footer_text, footer_html = footer()
    body = render_tokens(mail.body)
    message.set_content(body + footer_text)
    message.add_alternative(
        '<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:15px;line-height:1.5;'
        f'color:#222;max-width:600px">{as_html(body)}{footer_html}</body></html>', subtype="html")
    order = db.session.get(Order, mail.bill_order_id) if mail.bill_order_id else None
    if order is not None and order.bill_number:
        message.add_attachment(bills.render(order), maintype="application", subtype="pdf",
                               filename=bills.file_name(order))
    return message


def _transmit(mail: OutboxMail) -> None:
    config = current_app.config
    message = _message(mail)
    if not config.get("MAIL_SERVER"):
        # Without a mail server the log stands in for the mailbox, with working links, except in production,
        # where logs are collected and kept: there the links keep their placeholders.
        text = mail.body if config["BOOKSTORE_ENV"] == "production" else render_tokens(mail.body)
        log.info("E-mail to %s: %s\n%s", mail.to_address, mail.subject, text)
        return
    smtp_class = smtplib.SMTP_SSL if config["MAIL_USE_SSL"] else smtplib.SMTP
    with smtp_class(config["MAIL_SERVER"], config["MAIL_PORT"], timeout=SMTP_TIMEOUT_SECONDS) as smtp:
        if config["MAIL_USE_TLS"]:
            smtp.starttls()
        if config.get("MAIL_USERNAME"):
            smtp.login(config["MAIL_USERNAME"], config["MAIL_PASSWORD"])
        smtp.send_message(message)


# The confirmation cap (may_confirm) counts the outbox's last hour: no prune ever deletes a younger mail.
CAP_WINDOW = timedelta(hours=1)


def prune_sent() -> int:
    """Delete mail sent, or given up after every try, more than MAIL_KEEP_SENT_DAYS ago (the hourly job): what
    it said about a shopper is kept no longer than support needs it. Never a mail younger than an hour, which
    may_confirm still counts. Returns how many."""
    now = utcnow()
    cutoff = min(now - timedelta(days=current_app.config["MAIL_KEEP_SENT_DAYS"]), now - CAP_WINDOW)
    # A mail out of attempts was last tried before its next_attempt_at; one still claimed may be on its last try.
    gave_up = and_(OutboxMail.sent_at.is_(None), OutboxMail.attempts >= MAX_ATTEMPTS,
                   or_(OutboxMail.claimed_until.is_(None), OutboxMail.claimed_until < now),
                   OutboxMail.next_attempt_at < cutoff)
    removed = db.session.execute(delete(OutboxMail).where(
        OutboxMail.created_at < now - CAP_WINDOW, or_(OutboxMail.sent_at < cutoff, gave_up))).rowcount
    db.session.commit()
    return removed


def forget_addresses(addresses: set[str]) -> int:
    """Delete every mail to these addresses, sent or not (a closed account's); the caller commits."""
    if not addresses:
        return 0
    return db.session.execute(delete(OutboxMail).where(OutboxMail.to_address.in_(sorted(addresses)))
                              .execution_options(synchronize_session=False)).rowcount
