"""Who is calling: JWT issuing and loading, the admin guard and current-user helpers."""
import time
from datetime import datetime, timedelta, timezone
from functools import wraps

from flask import Flask, current_app, request
from flask_jwt_extended import create_access_token, get_jwt, verify_jwt_in_request
from flask_jwt_extended import current_user as jwt_current_user
from flask_jwt_extended.exceptions import JWTExtendedException
from jwt.exceptions import PyJWTError
from werkzeug.exceptions import SecurityError

from bookstore import clock
from bookstore.errors import Forbidden, envelope
from bookstore.extensions import db, jwt
from bookstore.models import RevokedToken, User, parse_id

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def issue_token(user: User) -> str:
    """A signed access token; admins get a shorter life than shoppers."""
    expires = current_app.config["ADMIN_TOKEN_EXPIRES"] if user.is_admin else None
    # `iat` has whole seconds only; `iat_us` lets "end every session now" also end tokens issued
    # earlier in the same second, while the fresh token of a password change stays valid.
    # `auth_time` (OpenID Connect's name): when the holder proved who they are. Tokens are issued only at a
    # sign-in (password, Google, registration, a password change), so it is the issue time; an e-mail change
    # without the password needs it recent.
    claims = {"role": user.role, "iat_us": time.time_ns() // 1000, "auth_time": int(clock.now().timestamp())}
    return create_access_token(identity=str(user.id), additional_claims=claims, expires_delta=expires or None)


def issued_before(payload: dict, moment) -> bool:
    """Whether a token was issued before `moment` (a UTC datetime; SQLite hands back naive ones)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    issued_us = payload.get("iat_us")
    if not isinstance(issued_us, int):
        issued_us = int(payload["iat"]) * 1_000_000
    return issued_us < (moment - _EPOCH) // timedelta(microseconds=1)


def signed_in_at(payload: dict) -> datetime:
    """When the token's holder signed in (`auth_time`, or `iat` for tokens issued before it was added)."""
    moment = payload.get("auth_time")
    return datetime.fromtimestamp(int(moment if isinstance(moment, int) else payload["iat"]), timezone.utc)


def current_user() -> User | None:
    """The signed-in user of this request, or None for a guest (after optional verification)."""
    return jwt_current_user if get_jwt() else None


def login_required(view):
    """Refuse the view with 401 unless a valid token is sent."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        verify_jwt_in_request()
        return view(*args, **kwargs)

    return wrapper


def login_unless_order_link(view):
    """Refuse the view with 401 unless a valid token is sent, or the URL carries an order e-mail's link
    token (`?token=`, checked by the service); with a link the sign-in is not looked at, so a stale
    session in the browser does not stand in the way of the link."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if not request.args.get("token"):
            verify_jwt_in_request()
        return view(*args, **kwargs)

    return wrapper


def optional_login(view):
    """Let guests through, but load the user when a token is sent; a bad token is still 401."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        verify_jwt_in_request(optional=True)
        return view(*args, **kwargs)

    return wrapper


def caller_is_admin() -> bool:
    """Whether a valid administrator's token came with this request; a public read never refuses a missing,
    stale or bad token for it (it just answers as to a guest)."""
    try:
        verify_jwt_in_request(optional=True)
    except (JWTExtendedException, PyJWTError):
        return False
    user = current_user()
    return user is not None and user.is_admin


def require_admin() -> None:
    """Refuse the request unless an administrator sent it. :raise Unauthorized: :raise Forbidden:"""
    verify_jwt_in_request()
    if not jwt_current_user.is_admin:
        raise Forbidden("Administrator access required.")


def refuse_untrusted_host() -> None:
    """Answer a request for a host that is not the shop's (400) before any other check runs.

    Flask compares Host with TRUSTED_HOSTS while routing and keeps the refusal for dispatch; raised
    here, it comes before the admin guard's 401, and no hook builds a link from a forged host.
    :raise SecurityError:
    """
    if isinstance(request.routing_exception, SecurityError):
        raise request.routing_exception


ADMIN_PREFIX = "/api/admin"


def admin_only(view):
    """Mark a view outside /api/admin (book writes, the contact inbox) as administrators' only.

    The mark survives flask-smorest's wrappers (functools.wraps copies it), and the one guard
    below enforces it; tests/api/test_admin_guard.py walks the URL map to prove both.
    """
    view.admin_only = True
    return view


def is_admin_route(path: str, view) -> bool:
    return path == ADMIN_PREFIX or path.startswith(ADMIN_PREFIX + "/") or getattr(view, "admin_only", False)


def guard_admin_routes() -> None:
    """The one admin check, before every request: all of /api/admin, and every view marked admin_only.

    Secure by default: a route added under /api/admin can never forget the role check.
    """
    if request.method == "OPTIONS":
        return
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if is_admin_route(request.path, view):
        require_admin()


def register_jwt_handlers(app: Flask) -> None:
    """Load the user behind each token and answer token problems in the shop's envelope (401)."""

    @jwt.user_lookup_loader
    def _load_user(_header, payload):
        key = parse_id(str(payload.get("sub", "")))
        return db.session.get(User, key) if key else None

    @jwt.user_lookup_error_loader
    def _user_gone(_header, _payload):
        return envelope("Your session has ended. Please sign in again.", 401)

    @jwt.token_in_blocklist_loader
    def _revoked(_header, payload):
        """Ended by a password change or reset (every token of the account), or by logout (this one)."""
        key = parse_id(str(payload.get("sub", "")))
        user = db.session.get(User, key) if key else None
        if user is not None and user.tokens_valid_after is not None and issued_before(payload, user.tokens_valid_after):
            return True
        # One primary-key look-up; the user above is reused by the user loader from the identity map.
        return db.session.get(RevokedToken, str(payload.get("jti", ""))) is not None

    @jwt.unauthorized_loader
    def _missing(_reason):
        return envelope("Please sign in to continue.", 401)

    @jwt.invalid_token_loader
    def _invalid(_reason):
        return envelope("Your session is not valid. Please sign in again.", 401)

    @jwt.expired_token_loader
    def _expired(_header, _payload):
        return envelope("Your session has expired. Please sign in again.", 401)

    @jwt.revoked_token_loader
    def _revoked_answer(_header, _payload):
        return envelope("Your session has ended. Please sign in again.", 401)

    @jwt.needs_fresh_token_loader
    def _not_fresh(_header, _payload):
        return envelope("Please sign in again to continue.", 401)
