"""Test fixtures: a migrated database per test worker, emptied before every test.

SQLite by default; with TEST_DATABASE_URL=postgresql://... the same suite runs on PostgreSQL,
each xdist worker in its own database.

The fixture apps (`app`, `mail_app`, `shop_app`, `google_app`) are built once per worker and
configuration and reset before each test (tests/app_pool.py). `make_app(...)` still builds a new app
for the tests that need one of their own, such as a test that adds a route or hook to the app (Flask
refuses that on an app that has already served a request). The local fakes the fixture apps talk to
(SMTP sink, Razorpay, Google) are new for every test, on a port this worker keeps, so a reused app
finds them where it was told they are.
"""
import os

import psycopg
import pytest
from flask_migrate import upgrade
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bookstore import create_app
from bookstore.extensions import db
from bookstore.models import User
from bookstore.models.shipment import DEFAULT_COURIERS, Courier
from tests.app_pool import AppPool, reserved_port
from tests.factories import Factories

# Tables that hold reference data loaded by the migrations; everything else is emptied per test.
KEEP_TABLES = {"categories", "exams", "exam_subjects", "alembic_version"}


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _postgres_database(url: str) -> str:
    """A fresh database for this worker, named after TEST_DATABASE_URL's database."""
    parsed = make_url(url)
    name = f"{parsed.database}_{_worker()}"
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parsed.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    """One migrated database for this worker's session."""
    base = os.environ.get("TEST_DATABASE_URL")
    url = _postgres_database(base) if base else "sqlite:///" + str(tmp_path_factory.mktemp("db") / "test.db")
    app = create_app(_config(url, str(tmp_path_factory.mktemp("media"))))
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return url


def _config(url: str, media_root: str, **extra) -> dict:
    return {
        "BOOKSTORE_ENV": "testing",
        "DATABASE_URL": url,
        "MEDIA_ROOT": media_root,
        "SECRET_KEY": "test-secret-key-0123456789abcdef0123456789",
        "JWT_SECRET_KEY": "test-jwt-key-0123456789abcdef0123456789abcdef",
        "RATELIMIT_STORAGE_URI": "memory://",
        # Jobs run inline, inside the commit that enqueues them: the test client sees their effects
        # at once. The consumer itself is exercised by tests/jobs/ with real queues.
        "JOBS_URL": "immediate://",
        # Tests empty the tables between them: search reads the synonyms afresh every time.
        "SEARCH_SYNONYMS_CACHE_SECONDS": 0,
        # ... and the index's Devanagari words (Hindi typed in Latin letters).
        "SEARCH_SCRIPT_WORDS_CACHE_SECONDS": 0,
        # Every test client is 127.0.0.1 and most tests order with one address: the anti-hoarding
        # limits are raised here and proved at their defaults in tests/api/test_order_limits.py.
        "ORDER_LIMIT_PER_IP": "10000 per hour", "ORDER_LIMIT_PER_CONTACT": "10000 per day",
        "LOOKUP_LIMIT_PER_IP": "10000 per minute", "OPEN_COD_ORDERS_PER_CONTACT": "100",  # the most an admin may set
        "UNPAID_COPIES_PER_BUYER": "10000",  # the most an admin may set
        "PAYMENT_LIMIT_PER_IP": "10000 per minute",
        **extra,
    }


def empty_database() -> None:
    """Delete every row the tests made, children first; the search index follows by trigger."""
    for table in reversed(db.metadata.sorted_tables):
        if table.name not in KEEP_TABLES:
            db.session.execute(table.delete())
    if db.engine.dialect.name == "postgresql":
        for table in db.metadata.sorted_tables:
            if table.name not in KEEP_TABLES and "id" in table.c and table.c.id.autoincrement is not False:
                db.session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), 1, false)"))
    # The couriers are seeded by migration 0017 but administrators edit them: back to the seed.
    db.session.add_all(Courier(name=name, tracking_url_template=template, position=index)
                       for index, (name, template) in enumerate(DEFAULT_COURIERS))
    db.session.commit()


@pytest.fixture
def make_app(database_url, tmp_path_factory):
    """Build a new app of its own on the test database with extra settings; disposed after the test.
    (The test empties the database itself if it needs to: the fixture apps below do.)"""
    apps = []
    media = []  # one folder for every app the test builds, made on the first build

    def build(**extra):
        media[:] = media or [str(tmp_path_factory.mktemp("media"))]
        app = create_app(_config(database_url, media[0], **extra))
        apps.append(app)
        return app

    yield build
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture(scope="session")
def app_pool(database_url, tmp_path_factory):
    """This worker's fixture apps, one per configuration, reset for every test."""
    pool = AppPool(lambda media_root, **extra: _config(database_url, media_root, **extra),
                   str(tmp_path_factory.mktemp("pooled") / "media"))
    yield pool
    pool.close()


def _in_context(app):
    """Run the test inside the app's context on an emptied database; its connections are closed after
    it, as a new app's would be (a test may leave the database file or server in a state an old
    connection would not see)."""
    with app.app_context():
        empty_database()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(app_pool):
    """The plain test app (built once per worker, reset), in its context, on an empty database."""
    yield from _in_context(app_pool.app())


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def factories(app) -> Factories:
    return Factories()


class Auth:
    """Sign people in through the real login endpoint and hand back their headers."""

    def __init__(self, client, factories: Factories):
        self.client = client
        self.factories = factories

    def login(self, email: str, password: str) -> dict:
        response = self.client.post("/api/auth/login", json={"email": email, "password": password})
        assert response.status_code == 200, response.get_json()
        return {"Authorization": f"Bearer {response.get_json()['token']}"}

    def customer(self, email: str = "shopper@example.in", password: str = "secret-pass") -> dict:
        self.factories.user(email=email, password=password)
        return self.login(email, password)

    def admin(self, email: str = "admin@example.in", password: str = "admin-pass-1") -> dict:
        self.factories.user(email=email, password=password, role="admin")
        return self.login(email, password)

    def admin_with_id(self, email: str = "admin@example.in") -> "Headers":
        """An administrator's headers; `.id` is the admin's user id (what history and audit rows name)."""
        headers = Headers(self.admin(email))
        headers.id = User.query.filter_by(email=email).one().id
        return headers


class Headers(dict):
    """Request headers that also remember whose they are."""


@pytest.fixture
def auth(client, factories) -> Auth:
    return Auth(client, factories)


@pytest.fixture(scope="session")
def fake_ports() -> dict:
    """The ports this worker's fakes listen on, the same for every test (the pooled apps know them)."""
    return {"smtp": reserved_port(), "razorpay": reserved_port(), "google": reserved_port()}


@pytest.fixture
def smtp_sink(fake_ports):
    """A local SMTP server, new for the test; build the app with MAIL_SERVER=127.0.0.1 and MAIL_PORT=sink.port."""
    from tests.fakes.smtp_sink import SmtpSink
    with SmtpSink(fake_ports["smtp"]) as sink:
        yield sink


@pytest.fixture
def mail_app(app_pool, smtp_sink):
    """An app that sends its e-mails to the SMTP sink."""
    yield from _in_context(app_pool.app(MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port),
                                        PUBLIC_URL="https://books.example.in"))


RAZORPAY_KEYS = {"RAZORPAY_KEY_ID": "rzp_test_bookstore", "RAZORPAY_KEY_SECRET": "test-key-secret",
                 "RAZORPAY_WEBHOOK_SECRET": "test-webhook-secret"}


@pytest.fixture
def razorpay(fake_ports):
    """A local fake of Razorpay's API that the real SDK talks to, new for the test."""
    from tests.fakes.razorpay_server import FakeRazorpay
    with FakeRazorpay(key_id=RAZORPAY_KEYS["RAZORPAY_KEY_ID"], key_secret=RAZORPAY_KEYS["RAZORPAY_KEY_SECRET"],
                      webhook_secret=RAZORPAY_KEYS["RAZORPAY_WEBHOOK_SECRET"], port=fake_ports["razorpay"]) as fake:
        yield fake


@pytest.fixture
def shop_app(app_pool, razorpay, smtp_sink):
    """The app with online payment (fake Razorpay, 2 s timeout), e-mail (SMTP sink) and the tracking webhook
    token configured."""
    yield from _in_context(app_pool.app(
        RAZORPAY_BASE_URL=razorpay.base_url, RAZORPAY_TIMEOUT_SECONDS="2", MAIL_SERVER="127.0.0.1",
        MAIL_PORT=str(smtp_sink.port), PUBLIC_URL="https://books.example.in", **RAZORPAY_KEYS,
        # The tracking webhook is set up too, so generated calls meet its token check rather than a 503.
        SHIPROCKET_WEBHOOK_TOKEN="test-tracking-token"))


@pytest.fixture
def shop(shop_app):
    """A test client of shop_app."""
    return shop_app.test_client()


GOOGLE_KEYS = {"GOOGLE_CLIENT_ID": "shop-client-id.apps.example", "GOOGLE_CLIENT_SECRET": "shop-client-secret"}


@pytest.fixture
def oidc_provider(fake_ports):
    """A local fake OpenID provider standing in for Google, new for the test."""
    from tests.fakes.oidc_provider import FakeOidcProvider
    with FakeOidcProvider(client_id=GOOGLE_KEYS["GOOGLE_CLIENT_ID"], client_secret=GOOGLE_KEYS["GOOGLE_CLIENT_SECRET"],
                          port=fake_ports["google"]) as fake:
        yield fake


@pytest.fixture
def google_app(app_pool, oidc_provider, smtp_sink):
    """The app with Google sign-in pointed at the fake provider, and e-mail at the SMTP sink."""
    yield from _in_context(app_pool.app(
        GOOGLE_DISCOVERY_URL=oidc_provider.discovery_url, MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port),
        PUBLIC_URL="https://books.example.in", **GOOGLE_KEYS))
