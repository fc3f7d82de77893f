"""Helpers shared by the account tests: links read from real e-mails, tokens as headers."""
import re
from datetime import timedelta

from bookstore.extensions import db
from bookstore.models import AccountToken, User

REGISTRATION = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "asha-reads-7",
                "phone": "9876543210"}


def link_token(body: str, path: str) -> str:
    """The token of the https://books.example.in{path}?token=... link in an e-mail body."""
    match = re.search(rf"https://books\.example\.in{re.escape(path)}\?token=([\w-]+)", body)
    assert match, body
    return match.group(1)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def register(client, **changes) -> dict:
    """Register through the API; returns the answer (token and user)."""
    response = client.post("/api/auth/register", json={**REGISTRATION, **changes})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def user_row(email: str = "asha@example.in") -> User:
    """The account as stored now, not a stale copy from the session."""
    db.session.expire_all()
    return db.session.scalar(db.select(User).where(User.email == email))


def age_links(purpose: str, by: timedelta) -> None:
    """Move every link of a purpose back in time, as if it had been mailed `by` ago."""
    for token in db.session.scalars(db.select(AccountToken).where(AccountToken.purpose == purpose)):
        token.expires_at = token.expires_at - by
    db.session.commit()


def unused_links(purpose: str) -> int:
    db.session.expire_all()
    return db.session.scalar(db.select(db.func.count()).select_from(AccountToken)
                             .where(AccountToken.purpose == purpose, AccountToken.used_at.is_(None)))
