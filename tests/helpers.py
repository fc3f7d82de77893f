"""Helpers shared by several test files: rows read back as stored now, rows changed behind the API's
back, the error envelope, e-mails received, and account links (test data is built in tests/factories.py)."""
import re
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import event, update

from bookstore.extensions import db
from bookstore.models import AccountToken, Book, Order, OutboxMail, User, utcnow

# --- statements ----------------------------------------------------------------------------------


@contextmanager
def recorded_statements():
    """The SQL statements run on the app's engine inside the block, as a list filled as they run."""
    seen: list[str] = []

    def record(_connection, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


def writes(statements: list[str]) -> list[str]:
    """The statements that change something (INSERT, UPDATE, DELETE)."""
    return [s for s in statements if s.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")]


# --- rows as stored now ---------------------------------------------------------------------------


def order_row(public_id: str) -> Order:
    """The order as stored now (not a stale copy from the session)."""
    db.session.expire_all()
    return db.session.scalar(db.select(Order).where(Order.public_id == public_id))


def book_row(book: Book) -> Book:
    """The book as stored now."""
    db.session.expire_all()
    return db.session.get(Book, book.id)


def stock_of(book: Book) -> tuple[int, int]:
    """(stock, copies_sold) as stored now."""
    row = book_row(book)
    return row.stock, row.copies_sold


def user_row(email: str = "asha@example.in") -> User:
    """The account as stored now, not a stale copy from the session."""
    db.session.expire_all()
    return db.session.scalar(db.select(User).where(User.email == email))


def set_order(public_id: str, **values) -> None:
    """Change an order's row directly (move its clock back, and so on)."""
    db.session.execute(update(Order).where(Order.public_id == public_id).values(**values))
    db.session.commit()
    db.session.expire_all()


def expire_payment_window(public_id: str) -> None:
    """Move an online order's payment deadline a minute into the past."""
    set_order(public_id, payment_expires_at=utcnow() - timedelta(minutes=1))


# --- answers and e-mails --------------------------------------------------------------------------


def assert_refused(response, status: int, message: str | None = None, field: str | None = None) -> dict:
    """The error envelope: success false, a human message, and errors for validation."""
    assert response.status_code == status, response.get_json()
    reply = response.get_json()
    assert reply["success"] is False and isinstance(reply["message"], str) and reply["message"]
    if message is not None:
        assert reply["message"] == message, reply
    if field is not None:
        assert field in reply["errors"], reply
    if status != 422:
        assert "errors" not in reply
    return reply


def outbox_subjects() -> list[str]:
    """Subjects of the e-mails in the outbox, oldest first."""
    db.session.expire_all()
    return [mail.subject for mail in db.session.scalars(db.select(OutboxMail).order_by(OutboxMail.id))]


def subjects(smtp_sink) -> list[str]:
    """Subjects of the e-mails the SMTP sink received, in order."""
    return [str(message["Subject"]) for message in smtp_sink.messages]


# --- accounts: registration and the links of account e-mails ----------------------------------------

REGISTRATION = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "asha-reads-7",
                "phone": "9876543210"}


def link_token(body: str, path: str) -> str:
    """The token of the https://books.example.in{path}?token=... link in an e-mail body."""
    match = re.search(rf"https://books\.example\.in{re.escape(path)}\?token=([\w-]+)", body)
    assert match, body
    return match.group(1)


def bearer(token: str) -> dict:
    """The Authorization header for a token."""
    return {"Authorization": f"Bearer {token}"}


def register(client, **changes) -> dict:
    """Register through the API; returns the answer (token and user)."""
    response = client.post("/api/auth/register", json={**REGISTRATION, **changes})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def age_links(purpose: str, by: timedelta) -> None:
    """Move every link of a purpose back in time, as if it had been mailed `by` ago."""
    for token in db.session.scalars(db.select(AccountToken).where(AccountToken.purpose == purpose)):
        token.expires_at = token.expires_at - by
    db.session.commit()


def unused_links(purpose: str) -> int:
    """Links of a purpose not used yet."""
    db.session.expire_all()
    return db.session.scalar(db.select(db.func.count()).select_from(AccountToken)
                             .where(AccountToken.purpose == purpose, AccountToken.used_at.is_(None)))
