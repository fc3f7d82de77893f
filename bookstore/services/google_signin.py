"""Google sign-in (OpenID Connect authorization-code flow) with Authlib, and the account it signs in.

The state and nonce travel in Flask's signed session cookie; a state is also recorded as spent in
`revoked_tokens` (by its SHA-256) before the code is exchanged, so a replayed callback is refused
even with an old copy of the cookie. Authlib checks the ID token: signature against the provider's
JWKS, issuer, audience, expiry and nonce.
"""
import hashlib
import logging
from datetime import timedelta

from authlib.common.errors import AuthlibBaseError
from authlib.integrations.base_client import MismatchingStateError
from authlib.integrations.flask_client import OAuth
from flask import Flask, current_app, request, session
from joserfc.errors import JoseError
from requests import RequestException
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from bookstore.extensions import db
from bookstore.models import RevokedToken, User, utcnow
from bookstore.services import accounts, sessions

log = logging.getLogger(__name__)

PROVIDER = "google"
TIMEOUT_SECONDS = 10
STATE_LIFETIME = timedelta(hours=1)  # Authlib keeps state data this long too


class SignInFailed(Exception):
    """Ends the flow at /auth/callback#error=<code>; codes are listed in docs/architecture.md."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def configured(config=None) -> bool:
    """Whether Google sign-in can be offered (client id and secret set)."""
    config = config or current_app.config
    return bool(config.get("GOOGLE_CLIENT_ID") and config.get("GOOGLE_CLIENT_SECRET"))


def init_app(app: Flask) -> None:
    """One Authlib client per app; its discovery document and JWKS are fetched on first use and cached."""
    oauth = OAuth(app)
    if configured(app.config):
        oauth.register(
            PROVIDER,
            client_id=app.config["GOOGLE_CLIENT_ID"],
            client_secret=app.config["GOOGLE_CLIENT_SECRET"],
            server_metadata_url=app.config["GOOGLE_DISCOVERY_URL"],
            client_kwargs={"scope": "openid email profile", "default_timeout": TIMEOUT_SECONDS},
        )


def _client():
    if not configured():
        raise SignInFailed("not_configured")
    return current_app.extensions["authlib.integrations.flask_client"].create_client(PROVIDER)


def start(redirect_uri: str):
    """The redirect to the provider's sign-in page, with a new state and nonce kept in the session."""
    client = _client()
    try:
        return client.authorize_redirect(redirect_uri)
    except (RequestException, ValueError, RuntimeError) as error:
        log.warning("Google sign-in could not start: %s", error)
        raise SignInFailed("provider_unavailable") from None


def finish() -> User:
    """Check the provider's answer, exchange the code and return the signed-in account.

    :raise SignInFailed: for every refusal, never with a partly changed account.
    """
    client = _client()
    if request.args.get("error"):
        raise SignInFailed("access_denied")
    state = request.args.get("state", "")
    if not state or len(state) > 200 or client.framework.get_state_data(session, state) is None:
        raise SignInFailed("invalid_state")
    if not request.args.get("code"):
        raise SignInFailed("invalid_request")
    _spend_state(state)
    metadata = _metadata(client)
    options = {"iss": {"essential": True, "value": metadata.get("issuer")},
               "aud": {"essential": True, "value": client.client_id}}
    try:
        token = client.authorize_access_token(claims_options=options, leeway=60)
    except MismatchingStateError:
        raise SignInFailed("invalid_state") from None
    except RequestException as error:
        log.warning("Google sign-in: provider unreachable during the exchange: %s", error)
        raise SignInFailed("provider_unavailable") from None
    except (AuthlibBaseError, JoseError, ValueError, KeyError, TypeError) as error:
        log.warning("Google sign-in refused: %r", error)
        raise SignInFailed("invalid_token") from None
    claims = token.get("userinfo")
    if not claims or not isinstance(claims.get("sub"), str) or not claims["sub"]:
        raise SignInFailed("invalid_token")
    return _account_for(claims)


def _metadata(client) -> dict:
    try:
        return client.load_server_metadata()
    except (RequestException, ValueError) as error:
        log.warning("Google sign-in: discovery document unavailable: %s", error)
        raise SignInFailed("provider_unavailable") from None


def _spend_state(state: str) -> None:
    """Record the state as used; a second use (a replay with an old cookie) is refused."""
    key = hashlib.sha256(f"oidc-state:{state}".encode()).hexdigest()
    db.session.execute(delete(RevokedToken).where(RevokedToken.expires_at < utcnow()))
    db.session.add(RevokedToken(jti=key, expires_at=utcnow() + STATE_LIFETIME))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise SignInFailed("invalid_state") from None


def _email_verified(claims) -> bool:
    # Google sends a JSON boolean; some providers send the string "true".
    return claims.get("email_verified") in (True, "true")


def _names(claims, email: str) -> tuple[str, str]:
    first = (claims.get("given_name") or "").strip()
    last = (claims.get("family_name") or "").strip()
    if not first:
        name = (claims.get("name") or "").strip()
        first, _, rest = name.partition(" ")
        last = last or rest.strip()
    return (first or email.split("@")[0])[:100], last[:100]


def _account_for(claims) -> User:
    """The account of a Google identity: by subject, else by verified e-mail (linked), else a new one."""
    email = claims.get("email")
    if not isinstance(email, str) or not email.strip() or len(email.strip()) > 254:
        raise SignInFailed("invalid_token")
    email = email.strip().lower()
    if not _email_verified(claims):
        raise SignInFailed("email_not_verified")
    subject = claims["sub"]
    user = db.session.scalar(select(User).where(User.google_subject == subject))
    if user is None:
        user = db.session.scalar(select(User).where(User.email == email))
        if user is not None:
            _link(user, subject)
        else:
            first, last = _names(claims, email)
            user = User(email=email, first_name=first, last_name=last, role="customer", password_hash=None,
                        google_subject=subject)
            db.session.add(user)
            db.session.flush()
    if user.is_admin:
        # Administrators sign in with their password only; a Google account must not open the admin area.
        db.session.rollback()
        raise SignInFailed("account_conflict")
    if not user.email_verified:
        accounts.mark_verified(user)
    try:
        db.session.commit()
    except IntegrityError:
        # The same Google account signing in twice at once; the other request made the account.
        db.session.rollback()
        raise SignInFailed("sign_in_failed") from None
    return user


def _link(user: User, subject: str) -> None:
    """Link Google to an existing account with the same address. :raise SignInFailed: linked elsewhere."""
    if user.google_subject not in (None, subject):
        raise SignInFailed("account_conflict")
    if not user.email_verified:
        # Whoever set this account's password never proved the address; Google's owner just did.
        # Drop that password and its sessions so a squatter cannot keep a way in.
        user.password_hash = None
        sessions.end_all(user)
    user.google_subject = subject
