"""Forgot password and reset by e-mailed link (issue 6, product §8.4), mails from a real SMTP sink."""
from datetime import timedelta

import pytest

from bookstore.extensions import db
from bookstore.models import AccountToken, OutboxMail
from tests.factories import count
from tests.helpers import age_links, link_token, unused_links, user_row

FORGOT_ANSWER = ("If an account exists for that address, we have e-mailed it a link to reset the password. "
                 "The link works for 1 hour.")


@pytest.fixture
def shopper(factories):
    return factories.user(email="asha@example.in", password="old-secret")


def _forgot(client, email="asha@example.in", **kwargs):
    return client.post("/api/auth/forgot-password", json={"email": email}, buffered=True, **kwargs)


def _login(client, password, email="asha@example.in"):
    return client.post("/api/auth/login", json={"email": email, "password": password})


def test_reset_by_link_sets_the_password_and_ends_every_session(mail_app, smtp_sink, shopper, auth):
    """The e-mailed link sets a new password once; sessions from before the reset are refused."""
    client = mail_app.test_client()
    old_session = auth.login("asha@example.in", "old-secret")
    response = _forgot(client)
    assert response.status_code == 202
    assert response.get_json() == {"success": True, "message": FORGOT_ANSWER}
    assert len(smtp_sink.messages) == 1 and smtp_sink.messages[0]["To"] == "asha@example.in"
    token = link_token(smtp_sink.body(), "/reset-password")

    reset = client.post("/api/auth/reset-password", json={"token": token, "password": "new-secret"})
    assert reset.status_code == 200 and reset.get_json()["success"] is True
    assert _login(client, "new-secret").status_code == 200
    assert _login(client, "old-secret").status_code == 401
    ended = client.get("/api/auth/profile", headers=old_session)
    assert ended.status_code == 401 and ended.get_json()["success"] is False
    assert "password was changed" in smtp_sink.messages[-1]["Subject"]

    reused = client.post("/api/auth/reset-password", json={"token": token, "password": "third-secret"})
    assert reused.status_code == 422 and reused.get_json()["reason"] == "used"
    assert _login(client, "new-secret").status_code == 200


def test_unknown_address_gets_the_same_answer_and_nothing_is_sent(mail_app, smtp_sink, shopper):
    """The answer does not reveal whether an address has an account."""
    client = mail_app.test_client()
    known = _forgot(client)
    unknown = _forgot(client, email="nobody@example.in")
    assert unknown.status_code == known.status_code == 202
    assert unknown.get_json() == known.get_json()
    assert set(unknown.headers.keys()) == set(known.headers.keys())
    assert len(smtp_sink.messages) == 1 and smtp_sink.messages[0]["To"] == "asha@example.in"
    assert count(AccountToken) == 1


def test_the_reset_email_is_sent_by_a_job_not_by_the_request(make_app, smtp_sink, tmp_path):
    """Forgot-password only queues a job, for a known address and an unknown one alike, so the answer's
    timing cannot tell them apart; the queued job then sends the one e-mail."""
    from bookstore import jobs
    from tests.conftest import empty_database
    from tests.factories import Factories
    app = make_app(JOBS_URL=f"sqlite:///{tmp_path / 'jobs.sqlite3'}", MAIL_SERVER="127.0.0.1",
                   MAIL_PORT=str(smtp_sink.port))
    with app.app_context():
        empty_database()
        Factories().user(email="asha@example.in", password="old-secret")
        client = app.test_client()
        for address in ("asha@example.in", "nobody@example.in"):
            assert client.post("/api/auth/forgot-password", json={"email": address}).status_code == 202
        assert smtp_sink.messages == [] and count(OutboxMail) == 1 and jobs.queue_depth() == 1
        jobs.huey.execute(jobs.huey.dequeue())  # what a consumer does with it
        assert len(smtp_sink.messages) == 1 and smtp_sink.messages[0]["To"] == "asha@example.in"
        db.session.remove()


def test_an_expired_reset_link_changes_nothing(mail_app, smtp_sink, shopper):
    """Reset links last 1 hour."""
    client = mail_app.test_client()
    _forgot(client)
    token = link_token(smtp_sink.body(), "/reset-password")
    age_links("reset-password", timedelta(hours=1, seconds=1))
    response = client.post("/api/auth/reset-password", json={"token": token, "password": "new-secret"})
    assert response.status_code == 422 and response.get_json()["reason"] == "expired"
    assert _login(client, "old-secret").status_code == 200
    assert unused_links("reset-password") == 1


def test_a_reset_ends_the_other_outstanding_reset_links(mail_app, smtp_sink, shopper):
    """Using one reset link ends the account's other outstanding reset links."""
    client = mail_app.test_client()
    _forgot(client)
    _forgot(client)
    first, second = (link_token(smtp_sink.body(i), "/reset-password") for i in (0, 1))
    assert client.post("/api/auth/reset-password", json={"token": second, "password": "new-secret"}).status_code == 200
    other = client.post("/api/auth/reset-password", json={"token": first, "password": "evil-secret"})
    assert other.status_code == 422 and other.get_json()["reason"] == "used"
    assert _login(client, "new-secret").status_code == 200 and unused_links("reset-password") == 0


def test_a_reset_link_proves_the_address(mail_app, smtp_sink, shopper):
    """Resetting through a mailed link marks the address as verified."""
    client = mail_app.test_client()
    _forgot(client)
    client.post("/api/auth/reset-password",
                json={"token": link_token(smtp_sink.body(), "/reset-password"), "password": "new-secret"})
    assert user_row().email_verified is True


def test_a_reset_link_stops_working_when_the_email_changes(mail_app, smtp_sink, shopper, auth):
    """A link proves the address it went to; once a new address is verified it opens nothing."""
    client = mail_app.test_client()
    _forgot(client)
    token = link_token(smtp_sink.body(), "/reset-password")
    headers = auth.login("asha@example.in", "old-secret")
    assert client.put("/api/auth/profile", headers=headers, json={"email": "asha2@example.in"}).status_code == 200
    verify = [message for message in smtp_sink.messages if message["To"] == "asha2@example.in"][-1]
    assert client.post("/api/auth/verify-email", json={
        "token": link_token(verify.get_body(("plain",)).get_content(), "/verify-email")}).status_code == 200
    refused = client.post("/api/auth/reset-password", json={"token": token, "password": "new-secret"})
    assert refused.status_code == 422 and refused.get_json()["reason"] == "invalid"
    assert _login(client, "old-secret", email="asha2@example.in").status_code == 200


@pytest.mark.parametrize("body, field", [
    ({"password": "12345"}, "password"),
    ({"password": "x" * 129}, "password"),
    ({"password": ""}, "password"),
    ({"password": None}, "password"),
    ({"password": 123456}, "password"),
    ({"token": "forged-token-never-sent"}, "token"),
    ({"token": ""}, "token"),
    ({"token": None}, "token"),
    ({"token": "y" * 201}, "token"),
    ({"token": "abc\x00def"}, "token"),
])
def test_bad_reset_requests_change_nothing(mail_app, smtp_sink, shopper, body, field):
    """Each bad field is refused with 422 and a message; the password and the link stay as they were."""
    client = mail_app.test_client()
    _forgot(client)
    payload = {"token": link_token(smtp_sink.body(), "/reset-password"), "password": "new-secret", **body}
    response = client.post("/api/auth/reset-password", json=payload)
    assert response.status_code == 422
    assert response.get_json()["success"] is False and field in response.get_json()["errors"]
    assert _login(client, "old-secret").status_code == 200
    assert unused_links("reset-password") == 1


def test_a_128_character_password_counts_every_character(mail_app, smtp_sink, shopper):
    """A 128-character password is stored whole: changing its last character fails the login."""
    client = mail_app.test_client()
    _forgot(client)
    password = "p" * 127 + "q"
    client.post("/api/auth/reset-password",
                json={"token": link_token(smtp_sink.body(), "/reset-password"), "password": password})
    assert _login(client, password).status_code == 200
    assert _login(client, "p" * 128).status_code == 401


def test_an_administrator_reset_needs_8_characters(mail_app, smtp_sink, factories):
    """Administrators keep create-admin's stricter rule; a refused password leaves the link usable."""
    factories.user(email="admin@example.in", password="admin-pass-1", role="admin")
    client = mail_app.test_client()
    _forgot(client, email="admin@example.in")
    token = link_token(smtp_sink.body(), "/reset-password")
    short = client.post("/api/auth/reset-password", json={"token": token, "password": "short-7"})
    assert short.status_code == 422 and "password" in short.get_json()["errors"]
    assert client.post("/api/auth/reset-password", json={"token": token, "password": "long-enough"}).status_code == 200


@pytest.mark.parametrize("body", [{}, {"email": ""}, {"email": "not-an-email"}, {"email": None}, {"email": 5}])
def test_bad_forgot_requests_are_422_and_send_nothing(mail_app, smtp_sink, shopper, body):
    """A forgot-password request without a valid e-mail is 422 and sends nothing."""
    client = mail_app.test_client()
    response = client.post("/api/auth/forgot-password", json=body, buffered=True)
    assert response.status_code == 422 and "email" in response.get_json()["errors"]
    assert smtp_sink.messages == [] and count(AccountToken) == 0


def test_forgot_password_is_limited_per_address_whether_it_exists_or_not(mail_app, smtp_sink, shopper):
    """The per-address limit applies alike to known and unknown addresses, so it reveals nothing."""
    mail_app.config["ACCOUNT_MAIL_LIMIT"] = "2 per hour"
    client = mail_app.test_client()
    for email in ("asha@example.in", "nobody@example.in"):
        for n in range(2):
            assert _forgot(client, email=email, environ_base={"REMOTE_ADDR": f"10.3.{n}.1"}).status_code == 202
        blocked = _forgot(client, email=email, environ_base={"REMOTE_ADDR": "10.3.9.1"})
        assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
    assert len(smtp_sink.messages) == 2


def test_forgot_password_is_limited_per_ip(mail_app, smtp_sink, shopper):
    """Forgot-password requests are limited per IP (429 beyond the limit), whichever addresses they name."""
    mail_app.config["FORM_LIMIT_PER_IP"] = "3 per minute"
    client = mail_app.test_client()
    ip = {"REMOTE_ADDR": "10.4.0.1"}
    for n in range(3):
        assert _forgot(client, email=f"someone{n}@example.in", environ_base=ip).status_code == 202
    assert _forgot(client, environ_base=ip).status_code == 429
    assert smtp_sink.messages == []


def test_a_google_only_account_can_set_a_password_by_reset(mail_app, smtp_sink, factories):
    """Accounts made by Google sign-in have no password until they choose one by e-mail."""
    user = factories.user(email="g@example.in", email_verified=True)
    user.password_hash = None
    db.session.commit()
    client = mail_app.test_client()
    assert _login(client, "anything", email="g@example.in").status_code == 401
    _forgot(client, email="g@example.in")
    client.post("/api/auth/reset-password",
                json={"token": link_token(smtp_sink.body(), "/reset-password"), "password": "chosen-pw"})
    assert _login(client, "chosen-pw", email="g@example.in").status_code == 200
