""""Notify me" alerts: a shopper asks to be e-mailed when a book is back in stock or a newer edition is added.

A guest's alert is active once its address is confirmed from a signed link (double opt-in); a signed-in
shopper's verified address makes it active at once. Stock and edition changes call `awaken` in their own
transaction, which asks for the `send_book_alerts` job after the commit; the job marks each due alert sent
with a conditional UPDATE in the transaction that queues its mail, so a mail goes out once however often the
job runs. `sweep` finds due alerts whose job was lost.
"""
import hashlib
from dataclasses import dataclass
from datetime import timedelta, timezone

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from bookstore import jobs
from bookstore.errors import Conflict, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Book, BookAlert, User, parse_id, utcnow
from bookstore.services import mail
from bookstore.services.rows import by_id

BACK_IN_STOCK = "back-in-stock"
NEW_EDITION = "new-edition"
CONFIRM_DAYS = 7
_SALT = "book-alert"
INVALID_LINK = "This link is not valid. Please ask for the alert again from the book's page."


@dataclass
class Asked:
    """What asking for an alert did: the alert, whether it is new, and the words for the shopper."""

    alert: BookAlert
    created: bool
    message: str


# Links: signed (no token is stored), naming the alert, what the link does and a digest of the address,
# so a link never acts on another alert that later took a deleted alert's id.

def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=_SALT)


def _digest(email: str) -> str:
    return hashlib.sha256(email.encode()).hexdigest()[:16]


def link_token(alert: BookAlert, purpose: str) -> str:
    """The signed token of an alert's confirm or cancel link."""
    return _serializer().dumps([alert.id, purpose, _digest(alert.email)])


def _mailed_link(alert: BookAlert, purpose: str) -> str:
    """The link for a mail: the outbox keeps what the token names (no token), signed when the mail is sent."""
    value = f"{purpose}.{alert.id}.{_digest(alert.email)}"
    return mail.shop_url(f"/alerts/{purpose}?token={mail.token_placeholder('alert', value)}")


def token_from(value: str) -> str:
    """The signed token for an outbox placeholder's `purpose.id.digest` (at send time)."""
    purpose, alert_id, digest = value.split(".")
    return _serializer().dumps([int(alert_id), purpose, digest])


def _alert_for(token: str, purpose: str, max_age: int | None = None) -> tuple[int, BookAlert | None]:
    """(alert id, the alert or None when gone) behind a signed link. :raise NotFound: :raise ValidationFailed:"""
    try:
        alert_id, said, digest = _serializer().loads(token, max_age=max_age)
    except SignatureExpired:
        raise ValidationFailed({"token": ["This confirmation link has expired. Please ask for the alert again."]},
                               data={"reason": "expired"}) from None
    except (BadSignature, ValueError, TypeError):
        raise NotFound(INVALID_LINK) from None
    if said != purpose or not isinstance(alert_id, int):
        raise NotFound(INVALID_LINK)
    alert = db.session.get(BookAlert, alert_id)
    if alert is not None and _digest(alert.email) != digest:
        alert = None
    return alert_id, alert


def _book(book_id: str) -> Book:
    """A book on sale. :raise NotFound:"""
    book = by_id(Book, book_id)
    if book is None or book.archived:
        raise NotFound("Book not found.")
    return book


def _known_edition(book: Book) -> int | None:
    newer = book.newer_edition
    return newer.id if newer is not None else None


def ask(book_id: str, kind: str, email: str | None, user: User | None) -> Asked:
    """Record an alert (idempotent per address, book and kind): active at once for a verified account,
    otherwise after the address confirms it from the e-mailed link.

    :raise NotFound: unknown or archived book. :raise ValidationFailed: no address. :raise Conflict: a
    back-in-stock alert on a book in stock.
    """
    book = _book(book_id)
    if user is not None:
        email = user.email  # a signed-in shopper is told at the account's address
    if not email:
        raise ValidationFailed({"email": ["E-mail is required."]})
    if kind == BACK_IN_STOCK and book.stock > 0:
        raise Conflict(f"'{book.title}' is in stock: you can order it now. Alerts are for books that are out of "
                       "stock.")
    verified = user is not None and user.email_verified
    alert = _find(email, book.id, kind)
    created = alert is None
    if created:
        alert = BookAlert(email=email, book_id=book.id, kind=kind, user_id=user.id if user else None,
                          known_edition_id=_known_edition(book) if kind == NEW_EDITION else None)
        db.session.add(alert)
        try:
            db.session.flush()
        except IntegrityError:
            # The same request twice at once: the unique key keeps one alert, which is what was asked.
            db.session.rollback()
            book, alert, created = _book(book_id), _find(email, book.id, kind), False
            if alert is None:
                raise
    elif alert.sent_at is not None:
        # Told once already (the book sold out again, or another edition may come): ask again, be told again.
        alert.sent_at = None
        alert.known_edition_id = _known_edition(book) if kind == NEW_EDITION else None
    if user is not None and alert.user_id is None:
        alert.user_id = user.id
    if alert.confirmed_at is None and verified:
        alert.confirmed_at = utcnow()
    if alert.confirmed_at is None:
        _confirm_by_mail(alert, book)
        message = (f"Almost done: please confirm the alert from the e-mail we sent to {email}. "
                   "We will not write to you about this book until you do.")
    else:
        message = (f"Done: we will e-mail {email} when '{book.title}' is back in stock." if kind == BACK_IN_STOCK
                   else f"Done: we will e-mail {email} when a newer edition of '{book.title}' is added.")
    db.session.commit()
    return Asked(alert, created, message)


def _find(email: str, book_pk: int, kind: str) -> BookAlert | None:
    return db.session.scalar(select(BookAlert).where(BookAlert.email == email, BookAlert.book_id == book_pk,
                                                     BookAlert.kind == kind))


def _what(kind: str, title: str) -> str:
    return (f"when '{title}' is back in stock" if kind == BACK_IN_STOCK
            else f"when a newer edition of '{title}' is added")


def _confirmation_valid(alert: BookAlert) -> bool:
    """The alert's last confirmation mail went out less than CONFIRM_DAYS ago: its link still works."""
    sent = alert.confirmation_sent_at
    if sent is None:
        return False
    sent = sent if sent.tzinfo else sent.replace(tzinfo=timezone.utc)
    return utcnow() - sent < timedelta(days=CONFIRM_DAYS)


def _confirm_by_mail(alert: BookAlert, book: Book) -> None:
    """Queue the double opt-in mail in the caller's transaction, unless the last one's link still works or the
    address has had its hourly share of confirmation mails; the shopper is answered the same either way."""
    if _confirmation_valid(alert) or not mail.may_confirm(alert.email):
        return
    alert.confirmation_sent_at = utcnow()
    link = _mailed_link(alert, "confirm")
    mail.queue(alert.email, f"Confirm your alert for '{book.title}'",
               f"You asked us to e-mail you {_what(alert.kind, book.title)}. Please confirm that this is your "
               f"address (the link works for {CONFIRM_DAYS} days):\n\n{link}\n\n"
               "If you did not ask for it, ignore this e-mail and nothing will be sent to you.", kind=mail.CONFIRMATION)


def confirm(token: str) -> BookAlert:
    """Activate the alert behind a confirmation link; confirming twice changes nothing.

    :raise NotFound: a forged link or a cancelled alert. :raise ValidationFailed: an expired link.
    """
    _alert_id, alert = _alert_for(token, "confirm", max_age=CONFIRM_DAYS * 86400)
    if alert is None:
        raise NotFound("This alert no longer exists: it was cancelled. Please ask for it again from the book's page.")
    if alert.confirmed_at is None:
        alert.confirmed_at = utcnow()
        awaken([alert.book_id])  # the book may be back already
    db.session.commit()
    return alert


def cancel_by_link(token: str) -> bool:
    """Delete the alert behind a mail's cancel link; True if it was there (a second click finds it gone).

    :raise NotFound: a forged link.
    """
    _alert_id, alert = _alert_for(token, "cancel")
    if alert is None:
        return False
    db.session.delete(alert)
    db.session.commit()
    return True


def _own(user: User):
    """A shopper's alerts: those they asked for signed in, and those of their address once it is verified."""
    mine = BookAlert.user_id == user.id
    return or_(mine, BookAlert.email == user.email) if user.email_verified else mine


def mine(user: User) -> list[BookAlert]:
    """The signed-in shopper's alerts (with their books' titles), newest first."""
    return list(db.session.scalars(select(BookAlert).where(_own(user))
                                   .order_by(BookAlert.created_at.desc(), BookAlert.id.desc())))


def cancel_own(user: User, alert_id: str) -> None:
    """Delete one of the shopper's alerts. :raise NotFound: unknown, or someone else's."""
    key = parse_id(alert_id)
    alert = db.session.scalar(select(BookAlert).where(BookAlert.id == key, _own(user))) if key else None
    if alert is None:
        raise NotFound("Alert not found.")
    db.session.delete(alert)
    db.session.commit()


def awaken(book_ids) -> None:
    """In the caller's transaction: after its commit, ask for the alert job of each book that has active,
    unsent alerts (the job itself checks whether the book is back or has a newer edition)."""
    ids = sorted({book_id for book_id in book_ids if book_id is not None})
    if not ids:
        return
    waiting = db.session.scalars(
        select(BookAlert.book_id).distinct().where(BookAlert.book_id.in_(ids), BookAlert.confirmed_at.is_not(None),
                                                  BookAlert.sent_at.is_(None)))
    for book_id in waiting:
        jobs.after_commit(tasks.send_book_alerts, book_id)


def _newer_editions(book: Book, known_id: int | None) -> list:
    return [newer for newer in book.newer_editions if not newer.archived and newer.id not in (book.id, known_id)]


def send_due(book_id: int) -> int:
    """Queue one mail per active, unsent alert of the book that is due (back in stock, or a newer edition
    than the one its shopper knew), marking each sent in the same transaction; returns how many."""
    book = db.session.get(Book, book_id)
    if book is None or book.archived:
        return 0
    due = db.session.scalars(
        select(BookAlert).where(BookAlert.book_id == book_id, BookAlert.confirmed_at.is_not(None),
                                BookAlert.sent_at.is_(None)).order_by(BookAlert.id)).all()
    sent = 0
    for alert in due:
        if alert.kind == BACK_IN_STOCK:
            if book.stock <= 0:
                continue
            subject, text = _back_in_stock_mail(book)
        else:
            newer = _newer_editions(book, alert.known_edition_id)
            if not newer:
                continue
            edition = max(newer, key=lambda ref: (ref.edition_year or 0, ref.edition_number or 0, ref.id))
            subject, text = _new_edition_mail(book, edition)
        # The claim: a second run (or a second consumer) finds the alert sent and queues nothing.
        claimed = db.session.execute(
            update(BookAlert).where(BookAlert.id == alert.id, BookAlert.sent_at.is_(None))
            .values(sent_at=utcnow()).execution_options(synchronize_session=False)).rowcount == 1
        if claimed:
            cancel = _mailed_link(alert, "cancel")
            mail.queue(alert.email, subject, f"{text}\n\nTo cancel this alert: {cancel}\n")
            sent += 1
    db.session.commit()
    return sent


def _back_in_stock_mail(book: Book) -> tuple[str, str]:
    link = mail.shop_url(f"/book/{book.id}")
    return (f"Back in stock: {book.title}",
            f"Good news: '{book.title}' by {book.author} is back in stock at the Bookstore.\n\n"
            f"Order it here while copies last: {link}\n\nWe will not e-mail you about it again.")


def _new_edition_mail(book: Book, edition) -> tuple[str, str]:
    link = mail.shop_url(f"/book/{edition.id}")
    year = f" ({edition.edition_year})" if edition.edition_year else ""
    return (f"A newer edition of {book.title}",
            f"A newer edition of '{book.title}' has been added to the Bookstore: '{edition.title}'{year}.\n\n"
            f"See it here: {link}\n\nWe will not e-mail you about it again.")


def due_book_ids(limit: int = 500) -> list[int]:
    """Books with active, unsent alerts that are due: a back-in-stock alert on a book in stock, or a
    new-edition alert on a book a visible newer edition (other than the known one) replaces."""
    newer = aliased(Book)
    has_new_edition = exists().where(newer.replaces_id == BookAlert.book_id, newer.archived.is_(False),
                                     newer.id != BookAlert.book_id,
                                     or_(BookAlert.known_edition_id.is_(None), newer.id != BookAlert.known_edition_id))
    return list(db.session.scalars(
        select(BookAlert.book_id).distinct().join(Book, Book.id == BookAlert.book_id)
        .where(BookAlert.confirmed_at.is_not(None), BookAlert.sent_at.is_(None), Book.archived.is_(False),
               or_(and_(BookAlert.kind == BACK_IN_STOCK, Book.stock > 0),
                   and_(BookAlert.kind == NEW_EDITION, has_new_edition)))
        .order_by(BookAlert.book_id).limit(limit)))
