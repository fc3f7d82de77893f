"""Outgoing e-mail through an outbox: queued in the transaction of the change it reports, then sent.

SMTP when MAIL_SERVER is set, otherwise written to the log. A mail server that is down never
loses or blocks an order: the message stays queued and `flask send-mail` retries it.
"""
import logging
import smtplib
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from flask import Flask, after_this_request, current_app, g, has_app_context, has_request_context, request
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import OutboxMail, utcnow

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8


def public_url(path: str) -> str:
    """An absolute link for e-mails: PUBLIC_URL when configured, else the address of this request."""
    base = current_app.config.get("PUBLIC_URL") or (request.host_url if has_request_context() else "")
    return (base or "http://127.0.0.1:8000/").rstrip("/") + path


def queue(to: str, subject: str, text: str) -> OutboxMail:
    """Add an e-mail to the outbox; it is committed (or dropped) with the caller's transaction."""
    mail = OutboxMail(to_address=to, subject=subject, body=text)
    db.session.add(mail)
    if has_app_context():
        g.setdefault("queued_mail", []).append(mail)
    return mail


def deliver_queued() -> None:
    """After the caller's commit: try the e-mails it queued now; failures stay for `flask send-mail`."""
    queued = g.pop("queued_mail", []) if has_app_context() else []
    for mail in queued:
        if mail.id is not None and mail.sent_at is None:
            _attempt(mail)
    if queued:
        db.session.commit()


def deliver_after_response() -> None:
    """After the caller's commit: send the e-mails it queued only once the answer has gone out.

    For answers whose timing must not tell whether an e-mail was sent (forgot-password): the SMTP
    conversation happens when the server closes the response, for every request alike.
    """
    ids = [mail.id for mail in g.pop("queued_mail", []) if mail.id is not None]
    app = current_app._get_current_object()

    @after_this_request
    def _send_on_close(response):
        response.call_on_close(lambda: _deliver_ids(app, ids))
        return response


def _deliver_ids(app: Flask, ids: list[int]) -> None:
    if not ids:
        return
    with app.app_context():
        try:
            for mail in db.session.scalars(select(OutboxMail).where(OutboxMail.id.in_(ids),
                                                                     OutboxMail.sent_at.is_(None))):
                _attempt(mail)
            db.session.commit()
        except Exception:
            # The answer has gone already; what was not sent stays queued for `flask send-mail`.
            log.exception("Could not send e-mails %s after the response", ids)
            db.session.rollback()


def send_pending(limit: int = 100) -> tuple[int, int]:
    """Send queued e-mails whose time has come; returns (sent, failed)."""
    now = utcnow()
    pending = db.session.scalars(
        select(OutboxMail).where(OutboxMail.sent_at.is_(None), OutboxMail.next_attempt_at <= now,
                                 OutboxMail.attempts < MAX_ATTEMPTS)
        .order_by(OutboxMail.id).limit(limit)
    ).all()
    sent = sum(_attempt(mail) for mail in pending)
    db.session.commit()
    return sent, len(pending) - sent


def send(to: str, subject: str, text: str) -> bool:
    """Queue and send at once (for mails that report no state change, like newsletter links)."""
    mail = queue(to, subject, text)
    db.session.commit()
    deliver_queued()
    return mail.sent_at is not None


def _attempt(mail: OutboxMail) -> bool:
    mail.attempts += 1
    try:
        _transmit(mail)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("Could not send e-mail %s to %s: %s", mail.id, mail.to_address, error)
        mail.last_error = str(error)[:300]
        # Back off: 1, 2, 4 ... minutes between attempts.
        mail.next_attempt_at = utcnow() + timedelta(minutes=2 ** (mail.attempts - 1))
        return False
    mail.sent_at = utcnow()
    mail.last_error = ""
    return True


def _transmit(mail: OutboxMail) -> None:
    config = current_app.config
    message = EmailMessage()
    message["From"] = config["MAIL_DEFAULT_SENDER"]
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    message["Message-ID"] = make_msgid(domain="bookstore")
    message.set_content(mail.body)
    if not config.get("MAIL_SERVER"):
        log.info("E-mail to %s: %s\n%s", mail.to_address, mail.subject, mail.body)
        return
    smtp_class = smtplib.SMTP_SSL if config["MAIL_USE_SSL"] else smtplib.SMTP
    with smtp_class(config["MAIL_SERVER"], config["MAIL_PORT"], timeout=10) as smtp:
        if config["MAIL_USE_TLS"]:
            smtp.starttls()
        if config.get("MAIL_USERNAME"):
            smtp.login(config["MAIL_USERNAME"], config["MAIL_PASSWORD"])
        smtp.send_message(message)
