"""Security headers (issue 12): the Content-Security-Policy of HTML pages, HSTS in production, /api/docs
served by the shop itself and closed to all but admins in production, and a private SQLite file."""
import os
import re
import stat

import pytest
from sqlalchemy import text

from bookstore import create_app
from bookstore.extensions import db
from bookstore.spa import BUILD_DIR
from tests.conftest import _config, empty_database

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)


def policy_of(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: " ".join(part.split()[1:]) for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/books", "/checkout", "/no-such-screen", "/api/docs"])
def test_every_html_page_carries_the_policy(client, path):
    """Scripts from the shop and Razorpay Checkout only; no plugins, no <base>, no framing; nothing inline."""
    response = client.get(path)
    assert response.mimetype == "text/html"
    policy = policy_of(response)
    assert policy["script-src"] == "'self' https://checkout.razorpay.com"
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert "unsafe-eval" not in response.headers["Content-Security-Policy"]


def test_the_checkout_origin_comes_from_the_setting(make_app):
    """The content security policy allows Checkout's script from the origin RAZORPAY_CHECKOUT_URL names."""
    app = make_app(RAZORPAY_CHECKOUT_URL="http://127.0.0.1:9010/v1/checkout.js")
    assert policy_of(app.test_client().get("/"))["script-src"] == "'self' http://127.0.0.1:9010"


def test_pages_hold_data_blocks_but_no_inline_script(client, factories):
    """The book page and home carry their first data as JSON blocks, which CSP does not run or block;
    every script that runs is a file of the shop."""
    book = factories.book(title="Inline <script>alert(1)</script> Physics")
    for path in ("/", "/books", f"/book/{book.id}"):
        html = client.get(path).get_data(as_text=True)
        for attributes in SCRIPT_TAG.findall(html):
            source = re.search(r'\bsrc="([^"]+)"', attributes)
            kind = re.search(r'\btype="([^"]+)"', attributes)
            if source:
                assert source.group(1).startswith("/static/"), attributes
            else:
                assert kind and kind.group(1) in ("application/json", "application/ld+json"), attributes


def test_json_answers_are_not_pages(client):
    """JSON answers are nosniff and may not be framed."""
    response = client.get("/api/health")
    assert response.mimetype == "application/json" and response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_hsts_in_production_only(make_app, client):
    """Strict-Transport-Security is sent in production only, on pages and API alike."""
    assert "Strict-Transport-Security" not in client.get("/").headers
    production = make_app(BOOKSTORE_ENV="production", PUBLIC_URL="https://books.example.in")
    for path in ("/", "/api/health"):
        response = production.test_client().get(path)
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


# --- /api/docs ---------------------------------------------------------------------------------------

def test_api_docs_use_the_shops_own_swagger_ui(client):
    """No CDN: Swagger UI's files come from /static/dist/swagger-ui (copied from the pinned npm package)."""
    html = client.get("/api/docs").get_data(as_text=True)
    assert "cdn" not in html and "http" not in html
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert sources == ["/static/dist/swagger-ui/swagger-ui-bundle.js", "/api/docs/init.js"]
    assert len(SCRIPT_TAG.findall(html)) == 2  # nothing inline
    script = client.get("/api/docs/init.js")
    assert script.mimetype == "text/javascript" and '"url": "/api/openapi.json"' in script.get_data(as_text=True)


def test_swagger_ui_files_are_built_and_revalidated(client):
    """Swagger UI's files are built and served no-cache, since their names carry no hash."""
    if not (BUILD_DIR / "index.html").exists():
        pytest.fail("The client is not built: run `make build` (make test does it).")
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        response = client.get(f"/static/dist/swagger-ui/{name}")
        assert response.status_code == 200 and len(response.data) > 10_000
        # Swagger UI's names carry no hash: a new version must replace the old one at once.
        assert response.headers["Cache-Control"] == "no-cache"


def test_api_docs_are_for_admins_only_in_production(make_app, database_url):
    """In production the API docs page and its script are for administrators only (401 for guests, 403 for
    shoppers), while the OpenAPI document stays public."""
    from tests.conftest import Auth
    from tests.factories import Factories
    app = make_app(BOOKSTORE_ENV="production", PUBLIC_URL="https://books.example.in")
    with app.app_context():
        empty_database()
        client = app.test_client()
        auth = Auth(client, Factories())
        shopper, admin = auth.customer(), auth.admin()
        for path in ("/api/docs", "/api/docs/init.js"):
            assert client.get(path).status_code == 401
            assert client.get(path, headers=shopper).status_code == 403
            assert client.get(path, headers=admin).status_code == 200
        assert client.get("/api/openapi.json").status_code == 200
        db.session.remove()


# --- the SQLite file ----------------------------------------------------------------------------------

def test_the_sqlite_database_is_created_private(tmp_path):
    """Password hashes and addresses live in it: mode 0600, and SQLite's -wal and -shm files follow it."""
    path = tmp_path / "shop.db"
    app = create_app(_config(f"sqlite:///{path}", str(tmp_path / "media")))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with app.app_context():
        db.session.execute(text("CREATE TABLE t (x integer)"))
        db.session.execute(text("INSERT INTO t VALUES (1)"))
        db.session.commit()
        companions = [tmp_path / "shop.db-wal", tmp_path / "shop.db-shm"]
        assert all(p.exists() for p in companions)
        assert {stat.S_IMODE(os.stat(p).st_mode) for p in companions} == {0o600}
        db.session.remove()
        db.engine.dispose()


def test_an_existing_sqlite_file_is_tightened(tmp_path):
    """An existing SQLite file readable by others is made private (0600) when the app starts."""
    path = tmp_path / "old.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    create_app(_config(f"sqlite:///{path}", str(tmp_path / "media")))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
