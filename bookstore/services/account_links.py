"""Single-use links sent by e-mail (verify the address, reset the password): made, checked, spent.

The link carries a random token; only its SHA-256 is stored. A link proves the address it was
sent to, so it stops working once the account's e-mail has changed; a verify link sent to a pending new
address (a profile change) proves that one, and makes it the account's.
"""
import base64
import hashlib
import hmac
import json
import secrets
from datetime import timedelta, timezone

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
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


def issue(user: User, purpose: str, email: str | None = None) -> str:
    """A new link for the account's current address (or `email`, the pending new address a verify link
    proves); added to the caller's transaction. Returns the link's seed: its token is token_of(seed), made
    when the mail is sent."""
    seed = secrets.token_urlsafe(24)
    raw = token_of(seed)
    # The account's expired links of this purpose go: rows stay few without a cleaning job.
    db.session.execute(delete(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == purpose,
                                                  AccountToken.expires_at < utcnow()))
    db.session.add(AccountToken(user_id=user.id, purpose=purpose, token_hash=_digest(raw), email=email or user.email,
                                expires_at=utcnow() + LIFETIMES[purpose]))
    return seed


def path(purpose: str, raw: str) -> str:
    """The screen the e-mailed link opens, e.g. /reset-password?token=..."""
    return f"{PATHS[purpose]}?token={raw}"


def redeem(raw: str, purpose: str) -> User:
    """Spend a link token and return its account (the caller commits).

    :raise ValidationFailed: 422 on `token` with `reason` invalid, used or expired; nothing changes.
    """
    return redeem_address(raw, purpose)[0]


def redeem_address(raw: str, purpose: str) -> tuple[User, str]:
    """Spend a link token: its account and the address it proves, the account's or (a verify link) the pending
    new one. :raise ValidationFailed: like `redeem`."""
    token = db.session.scalar(select(AccountToken).where(AccountToken.token_hash == _digest(raw),
                                                         AccountToken.purpose == purpose))
    if token is None:
        _refuse("invalid")
    user = db.session.get(User, token.user_id)
    if user is None or token.email not in _addresses(user, purpose):
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
    return user, token.email


def spend_outstanding(user: User, purpose: str) -> None:
    """Make every unused link of this purpose useless (e.g. other reset links after a reset)."""
    db.session.execute(
        update(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == purpose,
                                   AccountToken.used_at.is_(None))
        .values(used_at=utcnow()).execution_options(synchronize_session=False)
    )


def _addresses(user: User, purpose: str) -> tuple:
    """The addresses a link of this purpose may still prove: a reset only the account's own."""
    return (user.email, user.pending_email) if purpose == VERIFY_EMAIL else (user.email,)


def _refuse(reason: str):
    raise ValidationFailed({"token": [_REFUSALS[reason]]}, data={"reason": reason})


# The "this wasn't me" link of an e-mail change, mailed to the address being replaced. Signed, not stored: it
# names the account and both addresses, and works for a week, so the owner can still take the account back
# after the new address was verified.
UNDO_EMAIL_CHANGE_DAYS = 7
UNDO_EMAIL_CHANGE_PATH = "/undo-email-change"
_UNDO_INVALID = "This link is not valid. Please use the link in the e-mail we sent about the change."


def _undo_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="undo-email-change")


def undo_link(user: User, old_email: str, new_email: str) -> str:
    """The path of the link that gives the account back its `old_email`, for a mail: the outbox keeps the
    account and both addresses (which the mail names anyway), the token is signed when the mail is sent."""
    claims = base64.urlsafe_b64encode(json.dumps([user.id, old_email, new_email]).encode()).decode().rstrip("=")
    return f"{UNDO_EMAIL_CHANGE_PATH}?token={{{{link:undo-email:{claims}}}}}"


def undo_token(claims: str) -> str:
    """The signed token for an undo link's placeholder (at send time)."""
    user_id, old_email, new_email = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    return _undo_signer().dumps([user_id, old_email, new_email])


def undo_claims(raw: str) -> tuple[int, str, str]:
    """(account id, old address, new address) of an undo link.

    :raise ValidationFailed: 422 on `token`, reason invalid or expired.
    """
    try:
        user_id, old_email, new_email = _undo_signer().loads(raw, max_age=UNDO_EMAIL_CHANGE_DAYS * 86400)
    except SignatureExpired:
        raise ValidationFailed({"token": ["This link has expired. Please write to us to get your account back."]},
                               data={"reason": "expired"}) from None
    except (BadSignature, ValueError, TypeError):
        raise ValidationFailed({"token": [_UNDO_INVALID]}, data={"reason": "invalid"}) from None
    if not (isinstance(user_id, int) and isinstance(old_email, str) and isinstance(new_email, str)):
        raise ValidationFailed({"token": [_UNDO_INVALID]}, data={"reason": "invalid"})
    return user_id, old_email, new_email


# Spent and expired links are kept this long, so a late click still says "used" or "expired".
PRUNE_AFTER = timedelta(days=7)


def prune_expired() -> int:
    """Delete links expired or used more than a week ago (the hourly job); returns how many."""
    cutoff = utcnow() - PRUNE_AFTER
    removed = db.session.execute(delete(AccountToken).where(
        (AccountToken.expires_at < cutoff) | (AccountToken.used_at < cutoff))).rowcount
    db.session.commit()
    return removed
