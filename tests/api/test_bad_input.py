"""Bad input and oversized requests (issue 12): a clear 4xx (or 503) in the envelope, never a 500, nothing changed.

JSON the shop refuses (a lone surrogate, deep nesting, a 5,000-digit number) is refused where requests are
parsed, so every route behaves alike: orders, registration, the contact form and the admin's book form.
"""
import io
import json
import os
import re
import subprocess
import sys
import time

import pytest
from marshmallow import ValidationError
from PIL import Image

from bookstore.extensions import db
from bookstore.models import Book, ContactMessage, Order, User
from bookstore.schemas.order import MAX_LINES, TOO_MANY_LINES, PlaceOrderSchema
from tests.factories import count, order_payload
from tests.fakes.uploads import cover, data_url
from tests.helpers import assert_refused, stock_of

CONTACT = {"name": "Ravi Kumar", "email": "ravi@example.in", "phone": "9876543210", "subject": "order",
           "message": "Where is my order BK-2026-000123?"}
REGISTER = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "a-quiet-river-17",
            "phone": "9876543210"}
BOOK = {"title": "Quantitative Aptitude for Banking Exams", "author": "R. S. Aggarwal",
        "description": "Solved examples and practice sets for IBPS and SBI.", "price": 425.5, "category": "BANKING",
        "weight": "500g", "stock": 12, "publisher": "S. Chand", "publishYear": 2024, "language": "English",
        "pages": 640, "format": "Paperback"}

# (route, the text field that carries the bad value, the number field that gets the long literal)
ROUTES = {
    "orders": ("/api/orders", ("shippingAddress", "address"), ("totalPrice",)),
    "register": ("/api/auth/register", ("firstName",), ("phone",)),
    "contact": ("/api/contact", ("message",), ("phone",)),
    "admin book create": ("/api/books", ("title",), ("price",)),
}
MARK = "@@BAD@@"
BAD_VALUES = {
    # Python's json reads "\ud800" into a str no database can store (SQLite and psycopg fail to encode it).
    "lone surrogate": ('"\\ud800 Road"', "Text in the request body must be valid Unicode (it has a lone surrogate)."),
    "1,000 levels deep": ("[" * 1000 + "]" * 1000, "The request body is nested too deeply."),
    "5,000-digit integer": ("9" * 5000, "Numbers in the request body may have at most 100 digits."),
}


@pytest.fixture
def shop(client, auth, factories):
    """Valid bodies per route (so only the bad value can be refused) and how to count what they write."""
    admin = auth.admin()
    book = factories.book(stock=5, price_paise=49900)
    bodies = {"orders": order_payload([(book, 1)]), "register": dict(REGISTER), "contact": dict(CONTACT),
              "admin book create": {**BOOK, "imageUrl": cover()}}
    headers = {"admin book create": admin}

    def written():
        db.session.expire_all()
        return (count(Order), count(User), count(ContactMessage), count(Book), stock_of(book))
    return bodies, headers, written


def _with(payload: dict, path: tuple, raw_value: str) -> bytes:
    """The payload as JSON text, with the field at `path` set to the raw JSON text `raw_value`."""
    payload = json.loads(json.dumps(payload))
    target = payload
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = MARK
    return json.dumps(payload).replace(f'"{MARK}"', raw_value).encode()


@pytest.mark.parametrize("bad", BAD_VALUES)
@pytest.mark.parametrize("route", ROUTES)
def test_json_the_shop_cannot_hold_is_400_on_every_route(client, shop, route, bad):
    """A lone surrogate, 1,000 levels of nesting or a 5,000-digit number is 400 saying why; nothing is written,
    and the same body without it is accepted (so it was the bad value that was refused)."""
    bodies, headers, written = shop
    path, text_field, number_field = ROUTES[route]
    raw, message = BAD_VALUES[bad]
    field = number_field if bad == "5,000-digit integer" else text_field
    before = written()

    response = client.post(path, data=_with(bodies[route], field, raw), content_type="application/json",
                           headers=headers.get(route, {}))

    assert_refused(response, 400, message)
    assert written() == before
    assert client.post(path, json=bodies[route], headers=headers.get(route, {})).status_code == 201


def test_a_surrogate_in_a_key_and_nan_are_refused_too(client, shop):
    """Keys are text like values; NaN and Infinity are not JSON numbers."""
    bodies, _headers, written = shop
    before = written()
    for raw in (b'{"\\udfff": 1, "name": "Ravi"}', b'{"name": "Ravi", "phone": NaN}', b'{"phone": -Infinity}'):
        response = client.post("/api/contact", data=raw, content_type="application/json")
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["success"] is False
    assert written() == before


# --- orders: the line count first, and small bodies -----------------------------------------------

def test_too_many_lines_are_refused_before_any_line_is_read(client, factories):
    """2,000 lines (under 64 KB) are refused on their count alone: no per-line errors, nothing written."""
    lines = [{"book": str(n), "quantity": "x"} for n in range(2000)]
    raw = json.dumps(order_payload([], orderItems=lines), separators=(",", ":")).encode()
    assert len(raw) < 64 * 1024

    response = client.post("/api/orders", data=raw, content_type="application/json")

    reply = assert_refused(response, 422, TOO_MANY_LINES)
    assert reply["errors"] == {"orderItems": [TOO_MANY_LINES]}
    assert count(Order) == 0


def test_300000_lines_cost_no_time(app):
    """The 7.8 MB order of the issue took 5 s to validate line by line; counted first it takes milliseconds."""
    lines = [{"book": "1", "quantity": 1}] * 300_000
    started = time.perf_counter()
    with pytest.raises(ValidationError) as refused:
        PlaceOrderSchema().load(order_payload([], orderItems=lines))
    assert time.perf_counter() - started < 0.5
    assert refused.value.messages == {"orderItems": [TOO_MANY_LINES]}


def test_an_order_body_over_64_kb_is_413(client, factories):
    """An order is a few KB; 64 KB and more is refused before it is read, in the envelope."""
    book = factories.book(stock=5)
    raw = json.dumps(order_payload([(book, 1)], note="x" * (64 * 1024))).encode()

    response = client.post("/api/orders", data=raw, content_type="application/json")

    assert_refused(response, 413, "The request is too large (at most 64 KB here).")
    assert count(Order) == 0 and stock_of(book) == (5, 0)


@pytest.mark.parametrize("path", ["/api/contact", "/api/auth/register", "/api/auth/login"])
def test_other_json_routes_take_64_kb_too(client, path):
    """JSON bodies over 64 KB are 413 on the other form routes too, and nothing is stored."""
    raw = json.dumps({**CONTACT, **REGISTER, "message": "x" * (65 * 1024)}).encode()
    response = client.post(path, data=raw, content_type="application/json")
    assert_refused(response, 413)
    assert count(ContactMessage) == 0 and count(User) == 0


def test_book_writes_keep_room_for_a_cover(client, auth):
    """A real cover is far more than 64 KB: the admin's book form still takes it (and refuses above 10 MB)."""
    admin = auth.admin()
    noise = Image.frombytes("RGB", (300, 400), os.urandom(300 * 400 * 3))
    buffer = io.BytesIO()
    noise.save(buffer, "PNG")
    big_cover = data_url(buffer.getvalue())
    assert len(big_cover) > 200 * 1024

    response = client.post("/api/books", json={**BOOK, "imageUrl": big_cover}, headers=admin)
    assert response.status_code == 201, response.get_json()

    huge = json.dumps({**BOOK, "title": "Another", "imageUrl": "data:image/png;base64," + "A" * (11 * 1024 * 1024)})
    assert_refused(client.post("/api/books", data=huge, content_type="application/json", headers=admin), 413)
    assert count(Book) == 1


# --- a database busy beyond its timeout ---------------------------------------------------------------

_HOLD_LOCK = r"""
import sys, time
url = sys.argv[1]
if url.startswith("sqlite"):
    import sqlite3
    connection = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
else:
    import psycopg
    connection = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"))
    connection.execute("LOCK TABLE contact_messages IN ACCESS EXCLUSIVE MODE")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_database_locked_by_another_process_is_503_with_retry_after(make_app, database_url):
    """Another process holds the write lock past SQLite's busy timeout (or PostgreSQL's lock_timeout):
    503 in the envelope with Retry-After, nothing written, and the next attempt succeeds."""
    from tests.conftest import empty_database
    if database_url.startswith("postgresql"):
        # PostgreSQL waits for a lock forever unless told otherwise; the README's advice is lock_timeout.
        separator = "&" if "?" in database_url else "?"
        app = make_app(DATABASE_URL=f"{database_url}{separator}options=-c%20lock_timeout%3D1000")
    else:
        app = make_app()
    with app.app_context():
        empty_database()
        url = app.config["SQLALCHEMY_DATABASE_URI"]
        db.session.remove()
        holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, url], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "locked"
            response = app.test_client().post("/api/contact", json=CONTACT)
        finally:
            holder.stdin.close()
            holder.wait(timeout=10)

        reply = assert_refused(response, 503, "The shop is busy right now. Please try again in a moment.")
        # At least the shop's 2 s; the contact form's rate limit may name the end of its window instead.
        assert int(response.headers["Retry-After"]) >= 2 and "errors" not in reply
        assert count(ContactMessage) == 0
        assert app.test_client().post("/api/contact", json=CONTACT).status_code == 201
        db.session.remove()


def _routes_with_parameters(app):
    """Every /api (rule, method) with a path parameter, the parameter filled with text holding a NUL."""
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api") or not rule.arguments:
            continue
        path = re.sub(r"<[^>]+>", "a%00b", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield path, method


def test_a_nul_in_any_path_parameter_is_404(app, client, auth):
    """A NUL (%00) in an id or slug names nothing: 404 in the envelope on every route, to guests and
    administrators alike, before any view asks the database (PostgreSQL cannot hold a NUL)."""
    admin = auth.admin()
    routes = list(_routes_with_parameters(app))
    assert ("/api/exams/a%00b", "GET") in routes and ("/api/kits/a%00b", "GET") in routes
    assert len(routes) > 40
    for path, method in routes:
        for headers in ({}, admin):
            reply = client.open(path, method=method, json={}, headers=headers)
            assert_refused(reply, 404)
    assert count(Book) == 0


def test_a_nul_in_the_tracking_webhook_body_is_400(shop_app):
    """A NUL in a tracking update's text is refused (400 saying why), not looked up in the database."""
    shop = shop_app.test_client()
    headers = {"x-api-key": "test-tracking-token"}
    for body in ({"awb": "12\x0034", "current_status": "DELIVERED"}, {"awb": "1234", "current_status": "DELI\x00"}):
        reply = shop.post("/api/shipments/tracking-webhook", json=body, headers=headers)
        assert_refused(reply, 400, "Malformed webhook body: text must not contain NUL characters.")
    reply = shop.post("/api/shipments/tracking-webhook", json={"awb": "1234", "current_status": "DELIVERED"},
                      headers=headers)
    assert reply.status_code == 200 and reply.get_json()["message"] == "ignored: unknown AWB"
