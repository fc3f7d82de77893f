"""Changing the account's e-mail address cannot take the account over: the current password (or a sign-in in the
last 10 minutes) is needed, the old address keeps working until the new one is verified, and the old address gets
a "this wasn't me" link that keeps it and ends every session. Mails read from a real SMTP sink."""
import re
from datetime import timedelta

import pytest

from bookstore.models import User, utcnow
from bookstore.security import issue_token
from bookstore.services import account_links
from tests.factories import Factories
from tests.helpers import bearer, link_token, user_row

OWNER = "ravi@example.in"
PASSWORD = "secret-pass-1"
THIEF = "thief@example.in"


@pytest.fixture
def client(mail_app):
    return mail_app.test_client()


@pytest.fixture
def owner(mail_app):
    return Factories().user(email=OWNER, password=PASSWORD, first_name="Ravi", email_verified=True)


def sign_in(client, email=OWNER, password=PASSWORD) -> dict:
    response = client.post("/api/auth/login", json={"email": email, "password": password})
    assert response.status_code == 200, response.get_json()
    return bearer(response.get_json()["token"])


def later(app, minutes: int) -> None:
    """Let the shop's clock run on, as if the token had been taken from a session signed in `minutes` ago."""
    moment = utcnow() + timedelta(minutes=minutes)
    app.config["CLOCK"] = lambda: moment


def change_email(client, headers, email=THIEF, **extra):
    return client.put("/api/auth/profile", headers=headers, json={"email": email, **extra})


def mail_to(smtp_sink, address: str):
    found = [message for message in smtp_sink.messages if message["To"] == address]
    assert found, [message["To"] for message in smtp_sink.messages]
    return found[-1].get_body(("plain",)).get_content()


def undo_token(body: str) -> str:
    match = re.search(r"https://books\.example\.in/undo-email-change\?token=([\w.-]+)", body)
    assert match, body
    return match.group(1)


def test_an_old_sign_in_needs_the_password_to_change_the_email(mail_app, client, owner, smtp_sink):
    """Eleven minutes after signing in, a new address needs the current password: without it or with a wrong
    one the change is refused (422 on currentPassword) and nothing changes or is mailed."""
    headers = sign_in(client)
    later(mail_app, 11)
    missing = change_email(client, headers, firstName="Thief")
    assert missing.status_code == 422 and missing.get_json()["reason"] == "password-required"
    assert missing.get_json()["errors"] == {"currentPassword": [
        "Enter your current password to change your e-mail address."]}
    wrong = change_email(client, headers, currentPassword="guess-guess")
    assert wrong.status_code == 422 and wrong.get_json()["reason"] == "wrong-password"
    stored = user_row(OWNER)
    assert (stored.pending_email, stored.first_name) == (None, "Ravi") and smtp_sink.messages == []

    right = change_email(client, headers, currentPassword=PASSWORD)
    assert right.status_code == 200
    assert right.get_json()["user"]["email"] == OWNER and right.get_json()["user"]["pendingEmail"] == THIEF
    assert user_row(OWNER).pending_email == THIEF


def test_a_sign_in_within_ten_minutes_needs_no_password(mail_app, client, owner, smtp_sink):
    """Nine minutes after signing in, the address can be changed without typing the password again."""
    headers = sign_in(client)
    later(mail_app, 9)
    response = change_email(client, headers, email="Ravi.New@Example.in")
    assert response.status_code == 200 and response.get_json()["user"]["pendingEmail"] == "ravi.new@example.in"
    assert "ravi.new@example.in" in response.get_json()["message"]


def test_the_old_address_keeps_working_until_the_new_one_is_verified(client, owner, smtp_sink):
    """While the change is pending, sign-in and password resets stay with the old address and the new one is
    nobody's; the link mailed to the new address makes it the account's, verified, and the old one stops."""
    headers = sign_in(client)
    assert change_email(client, headers, email="ravi.new@example.in").status_code == 200
    assert "being changed" in str(smtp_sink.messages[0]["Subject"]) and smtp_sink.messages[0]["To"] == OWNER
    verify = link_token(mail_to(smtp_sink, "ravi.new@example.in"), "/verify-email")

    assert client.post("/api/auth/login", json={"email": "ravi.new@example.in", "password": PASSWORD}).status_code == 401
    sign_in(client)
    client.post("/api/auth/forgot-password", json={"email": "ravi.new@example.in"})
    client.post("/api/auth/forgot-password", json={"email": OWNER})
    assert [message["To"] for message in smtp_sink.messages[2:]] == [OWNER]
    old_reset = link_token(mail_to(smtp_sink, OWNER), "/reset-password")

    verified = client.post("/api/auth/verify-email", json={"token": verify})
    assert verified.status_code == 200 and verified.get_json()["user"]["email"] == "ravi.new@example.in"
    stored = user_row("ravi.new@example.in")
    assert stored.email_verified is True and stored.pending_email is None and user_row(OWNER) is None
    sign_in(client, "ravi.new@example.in")
    assert client.post("/api/auth/login", json={"email": OWNER, "password": PASSWORD}).status_code == 401
    stale = client.post("/api/auth/reset-password", json={"token": old_reset, "password": "new-pass-123"})
    assert stale.status_code == 422 and stale.get_json()["reason"] in ("invalid", "used")
    assert client.get("/api/auth/profile", headers=headers).status_code == 200  # the change ends no session


def test_this_wasnt_me_takes_the_account_back_and_ends_every_session(client, owner, smtp_sink):
    """The takeover: a stolen fresh token changes the address, the thief verifies it and asks for a reset. The
    owner's "this wasn't me" link gives the old address back (verified), ends every session, and the thief's
    reset link no longer works; the owner signs in as before."""
    thief = sign_in(client)
    owners_phone = sign_in(client)
    assert change_email(client, thief).status_code == 200
    undo = undo_token(mail_to(smtp_sink, OWNER))
    assert client.post("/api/auth/verify-email", json={
        "token": link_token(mail_to(smtp_sink, THIEF), "/verify-email")}).status_code == 200
    client.post("/api/auth/forgot-password", json={"email": THIEF})
    thiefs_reset = link_token(mail_to(smtp_sink, THIEF), "/reset-password")

    response = client.post("/api/auth/undo-email-change", json={"token": undo})
    assert response.status_code == 200 and response.get_json()["user"]["email"] == OWNER
    stored = user_row(OWNER)
    assert stored.email_verified is True and stored.pending_email is None and stored.tokens_valid_after is not None
    for headers in (thief, owners_phone):
        assert client.get("/api/auth/profile", headers=headers).status_code == 401
    refused = client.post("/api/auth/reset-password", json={"token": thiefs_reset, "password": "thief-pass-1"})
    assert refused.status_code == 422
    sign_in(client)
    assert "was kept" in str(smtp_sink.messages[-1]["Subject"]) and smtp_sink.messages[-1]["To"] == OWNER


def test_this_wasnt_me_while_pending_drops_the_change(client, owner, smtp_sink):
    """Before the new address is verified, the undo link drops the pending change and its verify link."""
    headers = sign_in(client)
    change_email(client, headers)
    verify = link_token(mail_to(smtp_sink, THIEF), "/verify-email")
    undo = undo_token(mail_to(smtp_sink, OWNER))
    assert client.post("/api/auth/undo-email-change", json={"token": undo}).status_code == 200
    assert user_row(OWNER).pending_email is None
    late = client.post("/api/auth/verify-email", json={"token": verify})
    assert late.status_code == 422 and user_row(OWNER) is not None and user_row(THIEF) is None
    assert client.get("/api/auth/profile", headers=headers).status_code == 401


@pytest.mark.parametrize("token, reason", [("forged.token.value", "invalid"), ("", None)])
def test_a_bad_undo_link_changes_nothing(client, owner, smtp_sink, token, reason):
    """A forged or missing undo token is 422 and the pending change stays."""
    headers = sign_in(client)
    change_email(client, headers)
    response = client.post("/api/auth/undo-email-change", json={"token": token})
    assert response.status_code == 422 and response.get_json().get("reason") == reason
    assert user_row(OWNER).pending_email == THIEF
    assert client.get("/api/auth/profile", headers=headers).status_code == 200


def test_an_undo_link_works_for_seven_days(client, owner, smtp_sink, monkeypatch):
    """The undo link is signed for 7 days; past them it is refused as expired and changes nothing."""
    headers = sign_in(client)
    change_email(client, headers)
    undo = undo_token(mail_to(smtp_sink, OWNER))
    monkeypatch.setattr(account_links, "UNDO_EMAIL_CHANGE_DAYS", -1)
    response = client.post("/api/auth/undo-email-change", json={"token": undo})
    assert response.status_code == 422 and response.get_json()["reason"] == "expired"
    assert user_row(OWNER).pending_email == THIEF


def test_a_google_account_without_a_password_needs_a_recent_sign_in(mail_app, client, smtp_sink):
    """An account made by Google sign-in has no password: the change needs a sign-in within 10 minutes, and a
    typed password is refused."""
    user = Factories().user(email=OWNER, email_verified=True)
    user.password_hash, user.google_subject = None, "google-subject-1"
    from bookstore.extensions import db
    db.session.commit()
    headers = bearer(issue_token(db.session.get(User, user.id)))
    typed = change_email(client, headers, currentPassword="anything-1")
    assert typed.status_code == 422 and typed.get_json()["reason"] == "wrong-password"
    later(mail_app, 11)
    stale = change_email(client, headers)
    assert stale.status_code == 422 and stale.get_json()["reason"] == "recent-sign-in-required"
    assert user_row(OWNER).pending_email is None
    mail_app.config.pop("CLOCK")
    assert change_email(client, headers).status_code == 200 and user_row(OWNER).pending_email == THIEF


def test_a_new_address_taken_meanwhile_is_refused_at_verification(client, owner, smtp_sink):
    """If another account registers the pending address before it is verified, its link is 409 and the
    account keeps its address."""
    change_email(client, sign_in(client))
    Factories().user(email=THIEF)
    response = client.post("/api/auth/verify-email", json={
        "token": link_token(mail_to(smtp_sink, THIEF), "/verify-email")})
    assert response.status_code == 409
    assert user_row(OWNER).pending_email == THIEF


def test_guessing_the_password_with_a_stolen_token_is_limited(make_app):
    """Wrong current passwords on the profile count against the account like failed logins (429 past the
    limit); a bad phone number does not count."""
    from bookstore.extensions import db
    from tests.conftest import empty_database
    app = make_app(LOGIN_FAILURES_PER_EMAIL="2 per minute")
    with app.app_context():
        empty_database()
        Factories().user(email=OWNER, password=PASSWORD)
        client = app.test_client()
        headers = sign_in(client)
        assert client.put("/api/auth/profile", headers=headers, json={"phone": "12"}).status_code == 422
        statuses = [change_email(client, headers, currentPassword=f"guess-{n}-x").status_code for n in range(3)]
        assert statuses == [422, 422, 429]
        assert user_row(OWNER).pending_email is None
        db.session.remove()
