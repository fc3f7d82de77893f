"""Rate limits (product §8.7): login per IP and failed logins per e-mail, forms per IP, shared via Redis."""
import uuid

import pytest

from bookstore.models import ContactMessage
from tests.factories import Factories, count

CONTACT = {"name": "Ravi", "email": "ravi@example.in", "subject": "general", "message": "A long enough message."}


def _login(client, password, ip="10.0.0.1", email="ravi@example.in", **headers):
    return client.post("/api/auth/login", json={"email": email, "password": password},
                       environ_base={"REMOTE_ADDR": ip}, headers=headers)


@pytest.fixture
def limited_app(make_app):
    from bookstore.extensions import db
    from tests.conftest import empty_database

    def build(**settings):
        app = make_app(**{"RATELIMIT_KEY_PREFIX": uuid.uuid4().hex, **settings})
        with app.app_context():
            empty_database()
            Factories().user(email="ravi@example.in", password="right-password")
            db.session.remove()
        return app
    return build


def test_login_is_limited_per_ip_with_retry_after(limited_app):
    """Past the per-IP limit, login answers 429 in the envelope with Retry-After."""
    client = limited_app(LOGIN_LIMIT_PER_IP="3 per minute").test_client()
    for _ in range(3):
        assert _login(client, "right-password").status_code == 200
    response = _login(client, "right-password")
    assert response.status_code == 429
    assert response.get_json()["success"] is False and response.get_json()["message"]
    assert int(response.headers["Retry-After"]) > 0
    assert _login(client, "right-password", ip="10.0.0.2").status_code == 200


def test_failed_logins_are_limited_per_email_across_ips(limited_app):
    """Guessing one account's password from many addresses still hits the per-e-mail limit."""
    client = limited_app(LOGIN_FAILURES_PER_EMAIL="3 per 15 minutes").test_client()
    for n in range(3):
        assert _login(client, "wrong", ip=f"10.0.1.{n}").status_code == 401
    blocked = _login(client, "right-password", ip="10.0.2.1")
    assert blocked.status_code == 429 and "Retry-After" in blocked.headers
    assert _login(client, "wrong", email="other@example.in", ip="10.0.2.1").status_code == 401


def test_successful_logins_do_not_count_against_the_email(limited_app):
    """Successful logins do not count towards the per-address limit on failed logins."""
    client = limited_app(LOGIN_FAILURES_PER_EMAIL="2 per 15 minutes").test_client()
    for n in range(5):
        assert _login(client, "right-password", ip=f"10.0.3.{n}").status_code == 200


def test_forwarded_for_is_ignored_without_proxies(limited_app):
    """With PROXY_COUNT=0 a client cannot dodge the limit by inventing X-Forwarded-For."""
    client = limited_app(LOGIN_LIMIT_PER_IP="2 per minute").test_client()
    for n in range(2):
        _login(client, "right-password", **{"X-Forwarded-For": f"1.2.3.{n}"})
    assert _login(client, "right-password", **{"X-Forwarded-For": "1.2.3.99"}).status_code == 429


def test_forwarded_for_is_trusted_behind_one_proxy(limited_app):
    """Behind a PaaS router (PROXY_COUNT=1) each shopper is counted by the address the router saw."""
    client = limited_app(LOGIN_LIMIT_PER_IP="2 per minute", PROXY_COUNT="1").test_client()
    for _ in range(2):
        _login(client, "right-password", **{"X-Forwarded-For": "1.2.3.4"})
    assert _login(client, "right-password", **{"X-Forwarded-For": "1.2.3.4"}).status_code == 429
    assert _login(client, "right-password", **{"X-Forwarded-For": "5.6.7.8"}).status_code == 200


@pytest.mark.parametrize("path, body", [
    ("/api/contact", CONTACT),
    ("/api/newsletter", {"email": "reader@example.in"}),
    ("/api/auth/register", {"firstName": "A", "lastName": "B", "email": "new@example.in", "password": "asha-reads-7"}),
])
def test_forms_are_limited_to_five_a_minute_per_ip(limited_app, path, body):
    """Each public form takes five posts a minute per IP; the sixth is 429."""
    client = limited_app().test_client()
    statuses = [client.post(path, json=body, environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code
                for _ in range(6)]
    assert statuses[-1] == 429
    assert 429 not in statuses[:5]


def test_limited_request_changes_nothing(limited_app):
    """A request refused by a rate limit stores nothing."""
    from bookstore.extensions import db
    app = limited_app(FORM_LIMIT_PER_IP="1 per minute")
    client = app.test_client()
    assert client.post("/api/contact", json=CONTACT).status_code == 201
    assert client.post("/api/contact", json=CONTACT).status_code == 429
    with app.app_context():
        assert count(ContactMessage) == 1
        db.session.remove()


def test_limits_can_be_turned_off_for_load_tests(limited_app):
    """RATELIMIT_ENABLED=false turns every limit off."""
    client = limited_app(RATELIMIT_ENABLED="false", LOGIN_LIMIT_PER_IP="1 per minute").test_client()
    assert all(_login(client, "right-password").status_code == 200 for _ in range(5))


def test_redis_shares_counts_between_workers(limited_app):
    """Two app processes (gunicorn workers or dynos) on one Redis count attempts together."""
    prefix = uuid.uuid4().hex
    settings = dict(RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379/0", LOGIN_LIMIT_PER_IP="3 per minute",
                    RATELIMIT_KEY_PREFIX=prefix)
    worker_a = limited_app(**settings).test_client()
    worker_b = limited_app(**settings).test_client()
    assert _login(worker_a, "right-password").status_code == 200
    assert _login(worker_b, "right-password").status_code == 200
    assert _login(worker_a, "right-password").status_code == 200
    assert _login(worker_b, "right-password").status_code == 429
