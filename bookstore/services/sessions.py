"""Ending sessions: one token by logout, or every token of an account after a password change."""
from datetime import datetime, timezone

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from bookstore.extensions import db
from bookstore.models import RevokedToken, User, utcnow


def revoke(payload: dict) -> None:
    """Refuse this access token from now until it would have expired anyway (logout)."""
    # Rows outlive nothing: each logout sweeps the expired ones (indexed on expires_at).
    db.session.execute(delete(RevokedToken).where(RevokedToken.expires_at < utcnow()))
    db.session.add(RevokedToken(jti=str(payload["jti"]),
                                expires_at=datetime.fromtimestamp(int(payload["exp"]), timezone.utc)))
    try:
        db.session.commit()
    except IntegrityError:
        # The same token logged out twice at once: it is revoked either way.
        db.session.rollback()


def end_all(user: User) -> None:
    """Refuse every token issued to the account until now (the caller commits)."""
    user.tokens_valid_after = utcnow()


def prune_expired() -> int:
    """Delete revocations of tokens that have expired anyway (the hourly job); returns how many."""
    removed = db.session.execute(delete(RevokedToken).where(RevokedToken.expires_at < utcnow())).rowcount
    db.session.commit()
    return removed
