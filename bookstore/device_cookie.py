"""Device cookies (OWASP's answer to lock-out by others): browsers that signed in before keep signing in.

A successful login gives the browser `device`, a cookie signed with SECRET_KEY (itsdangerous) naming
the account and a random nonce: HttpOnly, SameSite=Strict, sent only to /api/auth, kept a year, Secure
in production. A login that presents a valid device cookie for the account it tries is limited per
cookie (LOGIN_FAILURES_PER_DEVICE) instead of per e-mail (LOGIN_FAILURES_PER_EMAIL), so failures from
elsewhere cannot lock the owner out, and the owner's own failures lock out only that cookie. A password
change or reset distrusts the cookies issued before it, like the sessions.
"""
import secrets
from datetime import datetime, timedelta, timezone

from flask import Response, current_app, g, request
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import User

COOKIE = "device"
PATH = "/api/auth"
LIFETIME = timedelta(days=365)


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="login-device")


def remember(response: Response, user: User) -> Response:
    """Give the browser a fresh device cookie for the account (after a successful login)."""
    value = _serializer().dumps({"account": str(user.id), "nonce": secrets.token_urlsafe(16)})
    response.set_cookie(COOKIE, value, max_age=int(LIFETIME.total_seconds()), path=PATH, httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"], samesite="Strict")
    return response


def trusted_nonce(email: str | None) -> str | None:
    """The nonce of this request's device cookie when it is valid for the account of `email`, else None."""
    cached = g.get("device_cookie")
    if cached is None or cached[0] != email:
        cached = g.device_cookie = (email, _read(email))
    return cached[1]


def _read(email: str | None) -> str | None:
    raw = request.cookies.get(COOKIE)
    if not raw or not email:
        return None
    try:
        payload, signed_at = _serializer().loads(raw, max_age=int(LIFETIME.total_seconds()), return_timestamp=True)
    except BadData:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("nonce"), str):
        return None
    account = db.session.execute(select(User.id, User.tokens_valid_after).where(User.email == email)).first()
    if account is None or str(account.id) != payload.get("account"):
        return None
    if account.tokens_valid_after is not None and signed_at < _utc(account.tokens_valid_after):
        return None
    return payload["nonce"]


def _utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes.
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
