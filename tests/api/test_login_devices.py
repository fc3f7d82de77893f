"""Device cookies (issue 12, OWASP): failed logins from elsewhere never lock out a browser that signed in before.

Each test client is one browser with its own cookie jar; the attacker's failures come from other addresses.
"""
import uuid
from datetime import timedelta

import pytest
from itsdangerous import URLSafeTimedSerializer

from bookstore.extensions import db
from bookstore.models import utcnow
from tests.conftest import empty_database
from tests.factories import Factories

EMAIL, PASSWORD = "ravi@example.in", "right-password"


@pytest.fixture
def shop(make_app):
    """An app whose login limits are 3 failures per e-mail and per device, with Ravi's account."""
    def build(**settings):
        app = make_app(**{"RATELIMIT_KEY_PREFIX": uuid.uuid4().hex, "LOGIN_FAILURES_PER_EMAIL": "3 per 15 minutes",
                          "LOGIN_FAILURES_PER_DEVICE": "3 per 15 minutes", **settings})
        with app.app_context():
            empty_database()
            Factories().user(email=EMAIL, password=PASSWORD)
            Factories().user(email="admin@example.in", password="admin-pass-1", role="admin")
            db.session.remove()
        return app
    return build


def _login(browser, password=PASSWORD, email=EMAIL, ip="10.0.0.1"):
    return browser.post("/api/auth/login", json={"email": email, "password": password},
                        environ_base={"REMOTE_ADDR": ip})


def _lock_out_the_email(app, email=EMAIL, failures=3):
    """An attacker without any cookie fails from several addresses until the e-mail is limited."""
    attacker = app.test_client()
    for n in range(failures):
        assert _login(attacker, "guess-" + str(n), email=email, ip=f"10.66.0.{n}").status_code == 401
    assert _login(attacker, "another-guess", email=email, ip="10.66.1.1").status_code == 429
    return attacker


@pytest.mark.parametrize("email, password", [(EMAIL, PASSWORD), ("admin@example.in", "admin-pass-1")])
def test_the_owners_browser_signs_in_while_others_are_locked_out(shop, email, password):
    """After the e-mail's limit is hit from elsewhere, the owner's browser (shopper or admin) still signs in."""
    app = shop()
    owner = app.test_client()
    assert _login(owner, password, email=email).status_code == 200
    attacker = _lock_out_the_email(app, email)
    assert _login(owner, password, email=email).status_code == 200
    # The attacker, even with the right password, and any browser without the cookie stay limited.
    assert _login(attacker, password, email=email, ip="10.66.2.2").status_code == 429
    assert _login(app.test_client(), password, email=email).status_code == 429


def test_failures_with_a_device_cookie_count_for_that_browser_only(shop):
    """The owner's own typos lock out only their device cookie, not the account for everyone else."""
    app = shop()
    owner = app.test_client()
    assert _login(owner).status_code == 200
    for n in range(3):
        assert _login(owner, f"typo-{n}").status_code == 401
    locked = _login(owner)
    assert locked.status_code == 429 and "Retry-After" in locked.headers
    assert locked.get_json()["success"] is False
    assert _login(app.test_client(), ip="10.0.0.2").status_code == 200


def test_a_device_cookie_trusts_only_its_own_account(shop):
    """Ravi's device cookie does not exempt attempts at another account from that account's limit."""
    app = shop()
    browser = app.test_client()
    assert _login(browser).status_code == 200
    _lock_out_the_email(app, "admin@example.in")
    assert _login(browser, "admin-pass-1", email="admin@example.in").status_code == 429


def _device_cookie(browser):
    return browser.get_cookie("device", domain="localhost", path="/api/auth")


@pytest.mark.parametrize("forge", ["tampered", "other-secret", "not-a-cookie", "no-nonce"])
def test_a_forged_device_cookie_is_not_trusted(shop, forge):
    """A tampered, foreign-signed, malformed or incomplete device cookie is not trusted: the locked-out address stays
    locked out (429) in that browser."""
    app = shop()
    browser = app.test_client()
    assert _login(browser).status_code == 200
    value = _device_cookie(browser).value
    forged = {
        "tampered": value[:-2] + ("AA" if not value.endswith("AA") else "BB"),
        "other-secret": URLSafeTimedSerializer("not-the-shop-secret", salt="login-device").dumps(
            {"account": "1", "nonce": "n"}),
        "not-a-cookie": "garbage",
        "no-nonce": URLSafeTimedSerializer(app.config["SECRET_KEY"], salt="login-device").dumps({"account": "1"}),
    }[forge]
    browser.set_cookie("device", forged, domain="localhost", path="/api/auth")
    _lock_out_the_email(app)
    assert _login(browser).status_code == 429


def test_a_password_reset_distrusts_earlier_device_cookies(shop):
    """Like sessions, device cookies issued before a password change or reset are no longer trusted."""
    app = shop()
    browser = app.test_client()
    assert _login(browser).status_code == 200
    with app.app_context():
        from tests.helpers import user_row
        user_row(EMAIL).tokens_valid_after = utcnow() + timedelta(seconds=1)
        db.session.commit()
        db.session.remove()
    _lock_out_the_email(app)
    assert _login(browser).status_code == 429


def test_the_device_cookie_is_http_only_strict_and_sent_only_to_auth(shop):
    """Signed, HttpOnly, SameSite=Strict, Path=/api/auth, a year long; not Secure outside production."""
    app = shop()
    browser = app.test_client()
    failed = _login(browser, "wrong-password")
    assert failed.status_code == 401 and "Set-Cookie" not in failed.headers
    response = _login(browser)
    (header,) = response.headers.getlist("Set-Cookie")
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes and "secure" not in attributes
    assert "Path=/api/auth" in header and "SameSite=Strict" in header and "Max-Age=31536000" in header
    first = _device_cookie(browser).value
    assert EMAIL not in first and PASSWORD not in first
    assert _login(browser).status_code == 200
    assert _device_cookie(browser).value != first  # every sign-in gets a fresh nonce


def test_the_device_cookie_is_secure_in_production(shop):
    """In production the device cookie is Secure and HttpOnly."""
    app = shop(BOOKSTORE_ENV="production", PUBLIC_URL="https://books.example.in")
    header = _login(app.test_client()).headers["Set-Cookie"]
    assert "; Secure" in header and "HttpOnly" in header
