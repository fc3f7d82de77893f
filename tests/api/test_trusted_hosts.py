"""Absolute links never come from a forged Host (issue 12): PUBLIC_URL, or a host in TRUSTED_HOSTS.

Flask's test client sends `Host: localhost`, one of the default TRUSTED_HOSTS.
"""
import re

import pytest

from bookstore import create_app
from bookstore.models import AccountToken, OutboxMail
from tests.conftest import GOOGLE_KEYS, _config, empty_database
from tests.factories import count

EVIL = {"Host": "evil.example"}
REFUSED = {"success": False, "message": "This shop does not answer to that host name."}


@pytest.fixture
def no_public_url_app(make_app, smtp_sink):
    """An app without PUBLIC_URL (development's default), mailing to the SMTP sink."""
    app = make_app(MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port))
    with app.app_context():
        empty_database()
        yield app


def _forgot(client, **kwargs):
    return client.post("/api/auth/forgot-password", json={"email": "asha@example.in"}, buffered=True, **kwargs)


def _links(body: str) -> list[str]:
    return re.findall(r"https?://\S+", body)


def test_forgot_password_for_a_forged_host_is_refused_and_mails_nothing(no_public_url_app, smtp_sink, factories):
    """`Host: evil.example` gets 400 in the envelope: no reset link to evil.example is made or mailed."""
    factories.user(email="asha@example.in")
    response = _forgot(no_public_url_app.test_client(), headers=EVIL)
    assert response.status_code == 400
    assert response.get_json() == REFUSED
    assert count(AccountToken) == 0 and count(OutboxMail) == 0
    assert smtp_sink.messages == []


def test_forwarded_host_behind_the_proxy_is_checked_too(make_app, smtp_sink, factories):
    """Behind PROXY_COUNT proxies X-Forwarded-Host names the host, and it must be trusted as well."""
    app = make_app(MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port), PROXY_COUNT="1")
    with app.app_context():
        empty_database()
        factories.user(email="asha@example.in")
        client = app.test_client()
        response = _forgot(client, headers={"X-Forwarded-Host": "evil.example", "X-Forwarded-For": "1.2.3.4"})
        assert response.status_code == 400 and response.get_json() == REFUSED
        assert count(OutboxMail) == 0 and smtp_sink.messages == []
        assert _forgot(client, headers={"X-Forwarded-Host": "127.0.0.1:8000"}).status_code == 202
        assert _links(smtp_sink.body())[0].startswith("http://127.0.0.1:8000/reset-password?token=")


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/books"),
    ("GET", "/api/auth/profile"),
    ("GET", "/api/admin/orders"),  # refused for its host before the admin guard asks for a token
    ("POST", "/api/auth/login"),
    ("GET", "/api/auth/google"),
])
def test_every_api_path_refuses_a_forged_host_in_the_envelope(client, method, path):
    """Every API path refuses a request for an untrusted Host with 400 in the envelope."""
    response = client.open(path, method=method, headers=EVIL, json={} if method == "POST" else None)
    assert response.status_code == 400
    assert response.get_json() == REFUSED


@pytest.mark.parametrize("path", ["/", "/book/1", "/sitemap.xml", "/sitemap-pages.xml", "/robots.txt"])
def test_pages_and_sitemaps_refuse_a_forged_host(client, factories, path):
    """Canonical URLs, Open Graph and sitemaps are never written for another host."""
    factories.book()
    response = client.get(path, headers=EVIL)
    assert response.status_code == 400
    assert b"<loc>" not in response.data and b"canonical" not in response.data and b"Sitemap:" not in response.data


def test_google_start_refuses_a_forged_host(make_app, oidc_provider):
    """Google's redirect URI is never built from a forged host: no trip to the provider starts."""
    app = make_app(GOOGLE_DISCOVERY_URL=oidc_provider.discovery_url, **GOOGLE_KEYS)
    response = app.test_client().get("/api/auth/google", headers=EVIL)
    assert response.status_code == 400 and response.get_json() == REFUSED
    assert "Location" not in response.headers


def test_links_name_the_trusted_host_of_the_request_without_public_url(no_public_url_app, smtp_sink, factories):
    """Outside production, without PUBLIC_URL, links name the request's host when it is in TRUSTED_HOSTS."""
    factories.user(email="asha@example.in")
    assert _forgot(no_public_url_app.test_client(), headers={"Host": "127.0.0.1:5000"}).status_code == 202
    links = _links(smtp_sink.body())  # the reset link, and the shop's address in the footer
    assert all(link.startswith("http://127.0.0.1:5000/") for link in links)
    assert len([link for link in links if link.startswith("http://127.0.0.1:5000/reset-password?token=")]) == 1


def test_trusted_hosts_setting_is_a_comma_separated_list(make_app, factories):
    """TRUSTED_HOSTS replaces the default; a leading dot trusts every subdomain."""
    app = make_app(TRUSTED_HOSTS="shop.test, .example.in")
    with app.app_context():
        empty_database()
        book = factories.book()
        client = app.test_client()
        page = client.get(f"/book/{book.id}", headers={"Host": "www.example.in"}).get_data(as_text=True)
        assert f'<link rel="canonical" href="http://www.example.in/book/{book.id}">' in page
        assert client.get("/robots.txt", headers={"Host": "shop.test"}).status_code == 200
        assert client.get("/robots.txt", headers={"Host": "localhost"}).status_code == 400
        assert client.get("/robots.txt", headers=EVIL).status_code == 400


def test_public_url_makes_every_link_and_its_host_is_trusted(mail_app, smtp_sink, factories):
    """With PUBLIC_URL, links name it whatever trusted host the request came through."""
    factories.user(email="asha@example.in")
    client = mail_app.test_client()
    assert _forgot(client, headers={"Host": "127.0.0.1"}).status_code == 202
    assert _forgot(client, headers={"Host": "books.example.in"}).status_code == 202
    links = _links(smtp_sink.body(0)) + _links(smtp_sink.body(1))  # reset links and the footers' shop address
    assert all(link.startswith("https://books.example.in/") for link in links)
    assert len([link for link in links if link.startswith("https://books.example.in/reset-password?token=")]) == 2
    assert _forgot(client, headers=EVIL).status_code == 400


def _production(tmp_path, **settings):
    return create_app(_config(f"sqlite:///{tmp_path / 'unused.db'}", str(tmp_path / "media"),
                              BOOKSTORE_ENV="production", **settings))


def test_production_refuses_to_start_without_public_url(tmp_path):
    """Production refuses to start without PUBLIC_URL."""
    with pytest.raises(RuntimeError, match="Production needs these settings: PUBLIC_URL"):
        _production(tmp_path)


@pytest.mark.parametrize("value", ["books.example.in", "ftp://books.example.in", "https://", "https://x.in/?a=1"])
def test_a_malformed_public_url_is_refused_at_start(tmp_path, value):
    """A PUBLIC_URL that is not an http(s) origin is refused when the app starts."""
    with pytest.raises(RuntimeError, match="PUBLIC_URL must be an http"):
        _production(tmp_path, PUBLIC_URL=value)


def test_production_links_come_from_public_url_only(tmp_path):
    """In production a trusted Host still never names the links: PUBLIC_URL does."""
    app = _production(tmp_path, PUBLIC_URL="https://books.example.in/")
    assert app.config["PUBLIC_URL"] == "https://books.example.in"
    assert "books.example.in" in app.config["TRUSTED_HOSTS"]
    client = app.test_client()
    robots = client.get("/robots.txt", headers={"Host": "127.0.0.1:8000"})
    assert robots.status_code == 200
    assert "Sitemap: https://books.example.in/sitemap.xml" in robots.get_data(as_text=True)
    assert client.get("/robots.txt", headers=EVIL).status_code == 400
