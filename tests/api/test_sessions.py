"""Sessions: logout revokes one token, a password change ends the others, token lifetimes (product §8.5)."""
from datetime import datetime, timedelta, timezone

import pytest
from flask_jwt_extended import decode_token

from bookstore.extensions import db
from bookstore.models import RevokedToken, utcnow
from tests.factories import count
from tests.helpers import bearer, user_row


def _token(headers: dict) -> str:
    return headers["Authorization"].split(" ", 1)[1]


def test_logout_revokes_that_token_only(client, auth):
    """The token logged out with is refused from then on; another session of the account goes on."""
    phone = auth.customer()
    laptop = auth.login("shopper@example.in", "secret-pass")
    response = client.post("/api/auth/logout", headers=phone)
    assert response.status_code == 200 and response.get_json() == {"success": True, "message": "Signed out"}
    refused = client.get("/api/auth/profile", headers=phone)
    assert refused.status_code == 401
    assert refused.get_json() == {"success": False, "message": "Your session has ended. Please sign in again."}
    assert client.get("/api/auth/profile", headers=laptop).status_code == 200
    assert client.post("/api/auth/logout", headers=phone).status_code == 401


def test_revocation_is_kept_until_the_token_would_expire(client, auth, app):
    """A logged-out token's revocation is kept until the moment the token itself would have expired."""
    headers = auth.customer()
    payload = decode_token(_token(headers))
    client.post("/api/auth/logout", headers=headers)
    row = db.session.get(RevokedToken, payload["jti"])
    expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=timezone.utc)
    assert expires == datetime.fromtimestamp(payload["exp"], timezone.utc)


def test_logout_sweeps_expired_revocations(client, auth):
    """A logout deletes revocations of tokens that have expired anyway and keeps the others."""
    db.session.add(RevokedToken(jti="long-gone", expires_at=utcnow() - timedelta(minutes=1)))
    db.session.add(RevokedToken(jti="still-live", expires_at=utcnow() + timedelta(hours=1)))
    db.session.commit()
    client.post("/api/auth/logout", headers=auth.customer())
    db.session.expire_all()
    assert db.session.get(RevokedToken, "long-gone") is None
    assert db.session.get(RevokedToken, "still-live") is not None and count(RevokedToken) == 2


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic abc"}])
def test_logout_without_a_valid_token_is_401_and_revokes_nothing(client, headers):
    """Logging out without a valid token is 401 and revokes nothing."""
    response = client.post("/api/auth/logout", headers=headers)
    assert response.status_code == 401 and response.get_json()["success"] is False
    assert count(RevokedToken) == 0


def test_token_lifetimes_are_7_days_for_shoppers_and_8_hours_for_admins(client, auth):
    """Shoppers' tokens last 7 days and administrators' 8 hours."""
    for headers, hours in ((auth.customer(), 168), (auth.admin(), 8)):
        payload = decode_token(_token(headers))
        assert payload["exp"] - payload["iat"] == hours * 3600


def test_password_change_keeps_this_browser_and_ends_the_others(client, auth):
    """The answer carries a fresh token; tokens issued before the change are refused."""
    this_browser = auth.customer()
    other_browser = auth.login("shopper@example.in", "secret-pass")
    response = client.put("/api/auth/password", headers=this_browser,
                          json={"currentPassword": "secret-pass", "newPassword": "better-pass"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["success"] is True and body["token"] and body["user"]["email"] == "shopper@example.in"
    assert body["user"]["hasPassword"] is True
    assert client.get("/api/auth/profile", headers=bearer(body["token"])).status_code == 200
    assert client.get("/api/auth/profile", headers=this_browser).status_code == 401
    assert client.get("/api/auth/profile", headers=other_browser).status_code == 401
    login = client.post("/api/auth/login", json={"email": "shopper@example.in", "password": "better-pass"})
    assert login.status_code == 200
    assert client.get("/api/auth/profile", headers=bearer(login.get_json()["token"])).status_code == 200


def test_password_change_mails_a_notice(mail_app, smtp_sink, factories, auth):
    """A password change mails a notice to the account's address."""
    factories.user(email="asha@example.in", password="secret-pass")
    headers = auth.login("asha@example.in", "secret-pass")
    client = mail_app.test_client()
    client.put("/api/auth/password", headers=headers, json={"currentPassword": "secret-pass", "newPassword": "n3w-pass"})
    assert [m["To"] for m in smtp_sink.messages] == ["asha@example.in"]
    assert "password was changed" in smtp_sink.messages[0]["Subject"]


def test_a_wrong_current_password_is_422_and_keeps_the_session(client, auth):
    """422, not 401: the client clears its session on 401, and this shopper is still signed in."""
    headers = auth.customer()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "wrong-pass", "newPassword": "better-pass"})
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"currentPassword": ["Current password is incorrect."]}
    assert client.get("/api/auth/profile", headers=headers).status_code == 200
    assert user_row("shopper@example.in").tokens_valid_after is None
    assert client.post("/api/auth/login", json={"email": "shopper@example.in", "password": "secret-pass"}).status_code == 200


@pytest.mark.parametrize("body, field", [
    ({"newPassword": "12345"}, "newPassword"),
    ({"newPassword": "x" * 129}, "newPassword"),
    ({"newPassword": None}, "newPassword"),
    ({"newPassword": 1234567}, "newPassword"),
    ({"currentPassword": ""}, "currentPassword"),
    ({"currentPassword": None}, "currentPassword"),
    ({"currentPassword": "x" * 129}, "currentPassword"),
])
def test_bad_password_changes_change_nothing(client, auth, body, field):
    """A refused password change (422) keeps the session and the old password working."""
    headers = auth.customer()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "secret-pass", "newPassword": "better-pass", **body})
    assert response.status_code == 422 and field in response.get_json()["errors"]
    assert client.get("/api/auth/profile", headers=headers).status_code == 200
    assert client.post("/api/auth/login", json={"email": "shopper@example.in", "password": "secret-pass"}).status_code == 200


def test_password_change_needs_a_session(client):
    """Changing a password without signing in is 401."""
    response = client.put("/api/auth/password", json={"currentPassword": "a-pass", "newPassword": "better-pass"})
    assert response.status_code == 401


def test_guessing_the_current_password_is_limited_per_account(app, client, auth):
    """A stolen session cannot guess its way to the password: wrong guesses hit LOGIN_FAILURES_PER_EMAIL."""
    app.config["LOGIN_FAILURES_PER_EMAIL"] = "3 per 15 minutes"
    headers = auth.customer()
    for n in range(3):
        wrong = client.put("/api/auth/password", headers=headers, environ_base={"REMOTE_ADDR": f"10.5.0.{n}"},
                           json={"currentPassword": f"guess-{n}", "newPassword": "better-pass"})
        assert wrong.status_code == 422
    blocked = client.put("/api/auth/password", headers=headers,
                         json={"currentPassword": "secret-pass", "newPassword": "better-pass"})
    assert blocked.status_code == 429 and "Retry-After" in blocked.headers


def test_an_account_without_a_password_is_told_to_use_the_reset(client, factories):
    """An account without a password (Google sign-in only) is told to use Forgot password, and still has none."""
    user = factories.user(email="g@example.in", email_verified=True)
    user.password_hash = None
    db.session.commit()
    from bookstore.security import issue_token
    headers = bearer(issue_token(user))
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "anything", "newPassword": "better-pass"})
    assert response.status_code == 422 and "Forgot password" in response.get_json()["message"]
    assert user_row("g@example.in").password_hash is None


def test_tokens_from_the_same_second_as_a_reset_are_refused(client, auth, app):
    """The revocation is exact to the microsecond, not rounded to the token's whole-second `iat`."""
    headers = auth.customer()
    user = user_row("shopper@example.in")
    issued_us = decode_token(_token(headers))["iat_us"]
    user.tokens_valid_after = datetime.fromtimestamp(issued_us / 1_000_000, timezone.utc) + timedelta(microseconds=1)
    db.session.commit()
    assert client.get("/api/auth/profile", headers=headers).status_code == 401


def test_an_administrator_password_change_needs_8_characters(client, auth):
    """An administrator's new password needs at least 8 characters; a shorter one is 422 and the session stays valid."""
    headers = auth.admin()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "admin-pass-1", "newPassword": "short-7"})
    assert response.status_code == 422 and "newPassword" in response.get_json()["errors"]
    assert client.get("/api/admin/ping", headers=headers).status_code == 200


def test_account_calls_are_in_the_openapi_document(client):
    """Every account call (logout, verification, reset, password change, Google sign-in) is in the OpenAPI document."""
    document = client.get("/api/openapi.json").get_json()
    paths = document["paths"]
    for path, method in (("/api/auth/logout", "post"), ("/api/auth/verify-email", "post"),
                         ("/api/auth/resend-verification", "post"), ("/api/auth/forgot-password", "post"),
                         ("/api/auth/reset-password", "post"), ("/api/auth/password", "put"),
                         ("/api/auth/providers", "get"), ("/api/auth/google", "get"),
                         ("/api/auth/google/callback", "get")):
        assert method in paths[path], path
    assert set(document["components"]["schemas"]["ChangePassword"]["properties"]) == {"currentPassword", "newPassword"}
