"""Fixtures for the admin browser tests: a real gunicorn, pages in the session's Chromium, and a few helpers.

gunicorn serves the built client and the API on the worker's test database (SQLite, or PostgreSQL
with TEST_DATABASE_URL); the `app` fixture of tests/conftest.py empties it before each test, and
tests make their data with the factories or through the HTTP API, as a shopper would. Pages open in
tests/e2e/conftest.py's session-wide `browser`: one Playwright per process, since a second sync
Playwright cannot start while another runs (the storefront's tests may have started it first).
"""
import os
import re
from pathlib import Path

import pytest
from PIL import Image

from tests.server import Gunicorn, ROOT, request

FAILURES = ROOT / "test-artifacts" / "e2e"  # ignored by git
ADMIN_EMAIL = "admin@example.in"
ADMIN_PASSWORD = "admin-pass-1"
SHOPPER_PASSWORD = "shopper-pass"


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    """One gunicorn for the module: the production build of the client and the API."""
    if not (ROOT / "bookstore" / "static" / "dist" / "index.html").exists():
        pytest.fail("The client is not built: run `make setup` (or `npm run build`) first.")
    with Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=2, threads=4) as running:
        yield running


CALL_FAILED = pytest.StashKey[bool]()


class _CallOutcome:
    """Marks an item whose test body failed, so its fixtures can keep screenshots of that failure only."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if report.when == "call" and report.failed:
            item.stash[CALL_FAILED] = True
        return report


@pytest.fixture
def page_factory(browser, request):
    """Open pages (desktop size unless told); a failing test leaves a screenshot of each in test-artifacts/e2e."""
    if not request.config.pluginmanager.has_plugin("admin-e2e-call-outcome"):
        request.config.pluginmanager.register(_CallOutcome(), "admin-e2e-call-outcome")
    contexts, pages = [], []

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        contexts.append(context)
        pages.append(page)
        return page

    yield open_page
    if request.node.stash.get(CALL_FAILED, False):
        FAILURES.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        for index, page in enumerate(pages):
            try:
                page.screenshot(path=str(FAILURES / f"{name}-{index}.png"), full_page=True)
            except Exception:  # noqa: BLE001 - a closed page has nothing to show
                pass
    for context in contexts:
        context.close()


@pytest.fixture
def page(page_factory, server):
    """A desktop-sized page; its JavaScript errors fail the test."""
    opened = page_factory()
    yield opened
    assert opened.errors == [], f"JavaScript errors: {opened.errors}"


@pytest.fixture(params=[1280, 360], ids=["desktop", "phone"])
def admin_page(request, page_factory, server):
    """A page at the width given (desktop, then phone); its JavaScript errors fail the test."""
    opened = page_factory(request.param, 900 if request.param > 400 else 740)
    yield opened
    assert opened.errors == [], f"JavaScript errors: {opened.errors}"


@pytest.fixture
def admin(factories):
    """The administrator the screens sign in as."""
    return factories.user(email=ADMIN_EMAIL, password=ADMIN_PASSWORD, role="admin", first_name="Meena")


class Api:
    """The shop's HTTP API on the running server, as the storefront and the tests' shoppers use it."""

    def __init__(self, server: Gunicorn):
        self.server = server

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else None
        return request(self.server.port, method, path, body, headers)

    def login(self, email: str, password: str) -> str:
        status, body = self.call("POST", "/api/auth/login", {"email": email, "password": password})
        assert status == 200, body
        return body["token"]

    def place_cod_order(self, token: str | None, books: list[tuple[dict, int]], *, first_name: str = "Kiran",
                        email: str = "kiran@example.in") -> dict:
        """A cash-on-delivery order of (book reply, quantity) pairs at the shop's prices plus ₹40 shipping."""
        total = sum((book["discountedPrice"] or book["price"]) * quantity for book, quantity in books) + 40
        body = {"orderItems": [{"book": book["_id"], "quantity": quantity} for book, quantity in books],
                "paymentMethod": "cod", "totalPrice": round(total, 2),
                "shippingAddress": {"firstName": first_name, "lastName": "Rao", "email": email,
                                    "phone": "9876543210", "address": "12 FC Road", "city": "Pune",
                                    "state": "Maharashtra", "zipCode": "411004"}}
        status, reply = self.call("POST", "/api/orders", body, token)
        assert status == 201, reply
        return reply["order"]

    def book(self, book_id) -> dict:
        status, reply = self.call("GET", f"/api/books/{book_id}")
        assert status == 200, reply
        return reply["book"]

    def search(self, text: str) -> list[dict]:
        status, reply = self.call("GET", f"/api/books?search={text.replace(' ', '+')}")
        assert status == 200, reply
        return reply["books"]


@pytest.fixture
def api(server) -> Api:
    return Api(server)


def sign_in(page, server: Gunicorn, path: str = "/admin-login", *, email: str = ADMIN_EMAIL,
            password: str = ADMIN_PASSWORD) -> None:
    """Fill the admin login form on `path` (the login, or an admin screen that sends there) and submit it."""
    page.goto(server.base_url + path)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()


def admin_session(page) -> dict:
    """What the admin area keeps in localStorage."""
    return page.evaluate("() => ({token: localStorage.getItem('adminToken'), user: localStorage.getItem('adminUser')})")


def cover_png(path: Path, size=(300, 450), colour=(27, 94, 32)) -> Path:
    """A real PNG file to upload as a cover."""
    Image.new("RGB", size, colour).save(path, format="PNG")
    return path


def large_png(path: Path, megabytes: float = 6) -> Path:
    """A valid PNG over the 5 MB cover limit (random pixels do not compress)."""
    side = int((megabytes * 1024 * 1024 / 3) ** 0.5) + 1
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(path, format="PNG", compress_level=0)
    return path
