"""Outgoing e-mail: through SMTP when MAIL_SERVER is set, otherwise written to the log."""
import logging
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from flask import current_app, request

log = logging.getLogger(__name__)


def public_url(path: str) -> str:
    """An absolute link for e-mails: PUBLIC_URL when configured, else the address of this request."""
    base = current_app.config.get("PUBLIC_URL") or (request.host_url if request else "http://127.0.0.1:8000/")
    return base.rstrip("/") + path


def send(to: str, subject: str, text: str) -> bool:
    """Send a plain-text e-mail; False (and logged) when the mail server fails, so callers go on."""
    config = current_app.config
    message = EmailMessage()
    message["From"] = config["MAIL_FROM"]
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="bookstore")
    message.set_content(text)
    if not config.get("MAIL_SERVER"):
        log.info("E-mail to %s: %s\n%s", to, subject, text)
        return True
    try:
        smtp_class = smtplib.SMTP_SSL if config["MAIL_USE_SSL"] else smtplib.SMTP
        with smtp_class(config["MAIL_SERVER"], config["MAIL_PORT"], timeout=10) as smtp:
            if config["MAIL_USE_TLS"]:
                smtp.starttls()
            if config.get("MAIL_USERNAME"):
                smtp.login(config["MAIL_USERNAME"], config["MAIL_PASSWORD"])
            smtp.send_message(message)
    except (OSError, smtplib.SMTPException):
        log.exception("Could not send e-mail to %s: %s", to, subject)
        return False
    return True
