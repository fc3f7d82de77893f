"""Browser tests: Chromium driven by Playwright against a real gunicorn serving the built client.

One server per test worker for the whole session (shared, so tests make their own users and books):
gunicorn on a migrated database with a small demo catalogue, the fake Razorpay (API and a test
double of Checkout's script), the SMTP sink and the fake OpenID provider standing in for Google. Each test gets a fresh browser context. A failing
test leaves a screenshot in test-artifacts/e2e/; a page error or a server traceback fails the test.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest
import redis
from playwright.sync_api import sync_playwright

from bookstore import create_app
from bookstore.extensions import db
from tests.conftest import GOOGLE_KEYS, RAZORPAY_KEYS, _postgres_database
from tests.e2e.support.axe import assert_no_axe_violations  # noqa: F401  (re-exported for tests)
from tests.e2e.support.shop import ShopData
from tests.server import ROOT, Gunicorn

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
DEMO_BOOKS = 60
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def pytest_collection_modifyitems(items):
    """Everything under tests/e2e is a browser test: `-m "not e2e"` skips them, `make test` runs them."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so page fixtures know whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


# --- the server ---------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def e2e_database_url(tmp_path_factory) -> str:
    """This worker's database for the served shop: SQLite, or PostgreSQL `<name>_e2e_<worker>`."""
    base = os.environ.get("TEST_DATABASE_URL")
    if base:
        from sqlalchemy.engine import make_url
        parsed = make_url(base)
        return _postgres_database(parsed.set(database=f"{parsed.database}_e2e").render_as_string(hide_password=False))
    return "sqlite:///" + str(tmp_path_factory.mktemp("e2e-db") / "shop.db")


@pytest.fixture(scope="session")
def e2e_services():
    """The fake Razorpay, the SMTP sink and the fake Google (OpenID provider), for the whole session."""
    from tests.fakes.oidc_provider import FakeOidcProvider
    from tests.fakes.razorpay_server import FakeRazorpay
    from tests.fakes.smtp_sink import SmtpSink
    with SmtpSink() as sink, FakeRazorpay(key_id=RAZORPAY_KEYS["RAZORPAY_KEY_ID"],
                                          key_secret=RAZORPAY_KEYS["RAZORPAY_KEY_SECRET"],
                                          webhook_secret=RAZORPAY_KEYS["RAZORPAY_WEBHOOK_SECRET"]) as razorpay, \
            FakeOidcProvider(client_id=GOOGLE_KEYS["GOOGLE_CLIENT_ID"],
                             client_secret=GOOGLE_KEYS["GOOGLE_CLIENT_SECRET"]) as google:
        yield {"smtp": sink, "razorpay": razorpay, "google": google}


def _limits_database() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return 6 + (int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0)


@pytest.fixture(scope="session")
def live_server(e2e_database_url, e2e_services, tmp_path_factory):
    """gunicorn serving the built client and the API on a migrated, seeded database."""
    if not (ROOT / "bookstore" / "static" / "dist" / "index.html").exists():
        pytest.fail("The client is not built: run `make build` (make test does it).")
    workdir = tmp_path_factory.mktemp("e2e-server")
    server = Gunicorn(e2e_database_url, workdir, workers=2, threads=None)  # gunicorn.conf.py's threaded workers
    razorpay, smtp, google = e2e_services["razorpay"], e2e_services["smtp"], e2e_services["google"]
    # PUBLIC_URL is left to the server: once its port is known it is the address the browser uses, so
    # tests open e-mailed links from the SMTP sink as they are and Google's round trip comes back here.
    server.env.update(RAZORPAY_KEYS, RAZORPAY_BASE_URL=razorpay.base_url, RAZORPAY_TIMEOUT_SECONDS="5",
                      RAZORPAY_CHECKOUT_URL=f"{razorpay.base_url}/v1/checkout.js",
                      MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp.port),
                      GOOGLE_DISCOVERY_URL=google.discovery_url, **GOOGLE_KEYS)
    # Rate limits on, as in production, so the per-account e-mail limit (ACCOUNT_MAIL_LIMIT) answers 429
    # for real; the per-IP limits are raised, since every browser here shares 127.0.0.1.
    # Counted in Redis, as production must with several workers (it refuses memory:// then); one Redis
    # database per xdist worker, emptied first.
    limits_url = f"redis://127.0.0.1:6379/{_limits_database()}"
    redis.Redis.from_url(limits_url).flushdb()
    server.env.update(RATELIMIT_ENABLED="true", RATELIMIT_STORAGE_URI=limits_url,
                      LOGIN_LIMIT_PER_IP="100000 per minute", FORM_LIMIT_PER_IP="100000 per minute",
                      PAYMENT_LIMIT_PER_IP="100000 per minute",
                      ACCOUNT_MAIL_LIMIT="3 per hour")
    flask = [str(ROOT / ".venv" / "bin" / "flask"), "--app", "wsgi"]
    for command in (["db", "upgrade"], ["seed-demo", "--books", str(DEMO_BOOKS)]):
        done = subprocess.run(flask + command, cwd=ROOT, env=server.env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"flask {' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    with server:
        yield server


@pytest.fixture(scope="session")
def e2e_app(live_server):
    """An app object on the served database, for reading and making rows directly."""
    app = create_app({"BOOKSTORE_ENV": "testing", "DATABASE_URL": live_server.database_url,
                      "MEDIA_ROOT": live_server.env["MEDIA_ROOT"], "SECRET_KEY": "e2e-" + "x" * 40,
                      "JWT_SECRET_KEY": "e2e-" + "y" * 40})
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def shop(e2e_app) -> ShopData:
    """Make users and books in the served database and read orders back: shop.shopper(), shop.book(...)."""
    return ShopData(e2e_app)


@pytest.fixture
def razorpay(e2e_services):
    return e2e_services["razorpay"]


@pytest.fixture
def smtp(e2e_services):
    return e2e_services["smtp"]


@pytest.fixture
def google(e2e_services):
    """The fake Google of this worker's server: set `user`, `deny` or `id_token_fault`; reset after each test."""
    fake = e2e_services["google"]
    fake.reset()
    yield fake
    fake.reset()


# --- the browser --------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _artifact_name(item) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid)[-150:]


def _open_page(request, browser, live_server, **context_options):
    """A page in a fresh context; on failure a screenshot, and page errors (CSP violations among them) or
    server tracebacks fail the test."""
    context = browser.new_context(base_url=live_server.base_url, locale="en-IN", timezone_id="Asia/Kolkata",
                                  **context_options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page_errors = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    # Chromium reports what the Content-Security-Policy blocked as console errors, not page errors.
    page.on("console", lambda message: message.type == "error" and "Content Security Policy" in message.text
            and page_errors.append(message.text))
    log_before = len(live_server.log())
    yield page
    failed = any(getattr(getattr(request.node, f"report_{when}", None), "failed", False)
                 for when in ("setup", "call"))
    if failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = _artifact_name(request.node) + ("-phone" if context_options.get("is_mobile") else "")
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        except Exception as error:  # a crashed page cannot be photographed; the failure still stands
            print(f"no screenshot: {error}")
    context.close()
    tracebacks = [chunk for chunk in live_server.log()[log_before:].split("\n\n") if "Traceback" in chunk]
    if not failed:
        assert not page_errors, f"JavaScript errors on the page: {page_errors}"
        assert not tracebacks, "The server logged errors:\n" + "\n".join(tracebacks)


@pytest.fixture
def page(request, browser, live_server):
    """A desktop-sized page (1280×800) in its own context: empty storage, signed out."""
    yield from _open_page(request, browser, live_server, viewport=DESKTOP)


@pytest.fixture
def phone_page(request, browser, live_server):
    """A 360×740 phone page (touch, mobile viewport) in its own context."""
    yield from _open_page(request, browser, live_server, viewport=PHONE, is_mobile=True, has_touch=True,
                          device_scale_factor=2)


@pytest.fixture(params=["page", "phone_page"], ids=["desktop", "phone"])
def shopper_page(request):
    """The same journey at 1280 px and at 360 px."""
    return request.getfixturevalue(request.param)
