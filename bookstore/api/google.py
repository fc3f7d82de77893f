"""Google sign-in: start at the provider, come back, end at the client's /auth/callback screen.

Both routes are browser navigations, so they answer with redirects, never JSON: success ends at
`/auth/callback#token=...&user=...`, every failure at `/auth/callback#error=<code>`. The fragment
never reaches a server log (product §8.6).
"""
import json
import logging
from urllib.parse import quote, urlencode

from flask import redirect

from bookstore.blueprint import Blueprint
from bookstore.extensions import db
from bookstore.schemas.user import UserSchema
from bookstore.security import issue_token
from bookstore.services import google_signin
from bookstore.services.mail import shop_url

log = logging.getLogger(__name__)

blp = Blueprint("google", __name__, url_prefix="/api/auth/google", description="Google sign-in")

CLIENT_CALLBACK = "/auth/callback"


def _to_client(**fragment: str):
    response = redirect(CLIENT_CALLBACK + "#" + urlencode(fragment, quote_via=quote))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blp.route("", methods=["GET"])
@blp.response(302, description="To the provider's sign-in page, or to /auth/callback#error=<code>.")
def start():
    """Start Google sign-in: a redirect to Google with a fresh state and nonce."""
    try:
        return google_signin.start(shop_url("/api/auth/google/callback"))
    except google_signin.SignInFailed as failure:
        return _to_client(error=failure.code)


@blp.route("/callback", methods=["GET"])
@blp.response(302, description="To /auth/callback#token=...&user=... or /auth/callback#error=<code>.")
def callback():
    """Google's redirect back: exchange the code, check the ID token, sign the account in."""
    try:
        user = google_signin.finish()
        token = issue_token(user)
        user_json = json.dumps(UserSchema().dump(user), separators=(",", ":"), ensure_ascii=False)
    except google_signin.SignInFailed as failure:
        db.session.rollback()
        return _to_client(error=failure.code)
    except Exception:
        # A browser navigation: a JSON 500 would strand the shopper on a blank page.
        log.exception("Google sign-in failed unexpectedly")
        db.session.rollback()
        return _to_client(error="sign_in_failed")
    return _to_client(token=token, user=user_json)
