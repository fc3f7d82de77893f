"""Single-use links sent by e-mail (verify the address, reset the password): made, checked, spent.

The link carries a random token; only its SHA-256 is stored. A link proves the address it was
sent to, so it stops working once the account's e-mail has changed.
"""
import base64
import hashlib
import hmac
import secrets
from datetime import timedelta, timezone

from flask import current_app
from sqlalchemy import delete, select, update

from bookstore.errors import ValidationFailed
from bookstore.extensions import db
from bookstore.models import AccountToken, User, utcnow

VERIFY_EMAIL = "verify-email"
RESET_PASSWORD = "reset-password"
LIFETIMES = {VERIFY_EMAIL: timedelta(hours=24), RESET_PASSWORD: timedelta(hours=1)}
PATHS = {VERIFY_EMAIL: "/verify-email", RESET_PASSWORD: "/reset-password"}

_REFUSALS = {
    "invalid": "This link is not valid. Please use the latest link we e-mailed you.",
    "used": "This link has been used already.",
    "expired": "This link has expired. Please ask for a new one.",
}


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_of(seed: str) -> str:
    """The link's token for a seed: derived with the app's secret, so the seed the outbox keeps (mail.py) is no
    token to whoever reads the database alone."""
    key = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(key, f"account-link:{seed}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def issue(user: User, purpose: str) -> str:
    """A new link for the account's current address; added to the caller's transaction. Returns the link's
    seed: its token is token_of(seed), made when the mail is sent."""
    seed = secrets.token_urlsafe(24)
    raw = token_of(seed)
    # The account's expired links of this purpose go: rows stay few without a cleaning job.
    db.session.execute(delete(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == purpose,
                                                  AccountToken.expires_at < utcnow()))
    db.session.add(AccountToken(user_id=user.id, purpose=purpose, token_hash=_digest(raw), email=user.email,
                                expires_at=utcnow() + LIFETIMES[purpose]))
    return seed


def path(purpose: str, raw: str) -> str:
    """The screen the e-mailed link opens, e.g. /reset-password?token=..."""
    return f"{PATHS[purpose]}?token={raw}"


def redeem(raw: str, purpose: str) -> User:
    """Spend a link token and return its account (the caller commits).

    :raise ValidationFailed: 422 on `token` with `reason` invalid, used or expired; nothing changes.
    """
    token = db.session.scalar(select(AccountToken).where(AccountToken.token_hash == _digest(raw),
                                                         AccountToken.purpose == purpose))
    if token is None:
        _refuse("invalid")
    user = db.session.get(User, token.user_id)
    if user is None or user.email != token.email:
        _refuse("invalid")
    if token.used_at is not None:
        _refuse("used")
    expires_at = token.expires_at if token.expires_at.tzinfo else token.expires_at.replace(tzinfo=timezone.utc)
    if expires_at <= utcnow():
        _refuse("expired")
    # Conditional, so two clicks racing on one link spend it once.
    spent = db.session.execute(
        update(AccountToken).where(AccountToken.id == token.id, AccountToken.used_at.is_(None))
        .values(used_at=utcnow()).execution_options(synchronize_session=False)
    ).rowcount
    if spent != 1:
        db.session.rollback()
        _refuse("used")
    return user


def spend_outstanding(user: User, purpose: str) -> None:
    """Make every unused link of this purpose useless (e.g. other reset links after a reset)."""
    db.session.execute(
        update(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == purpose,
                                   AccountToken.used_at.is_(None))
        .values(used_at=utcnow()).execution_options(synchronize_session=False)
    )


def _refuse(reason: str):
    raise ValidationFailed({"token": [_REFUSALS[reason]]}, data={"reason": reason})


# Spent and expired links are kept this long, so a late click still says "used" or "expired".
PRUNE_AFTER = timedelta(days=7)


def prune_expired() -> int:
    """Delete links expired or used more than a week ago (the hourly job); returns how many."""
    cutoff = utcnow() - PRUNE_AFTER
    removed = db.session.execute(delete(AccountToken).where(
        (AccountToken.expires_at < cutoff) | (AccountToken.used_at < cutoff))).rowcount
    db.session.commit()
    return removed
