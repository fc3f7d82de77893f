"""CSV exports (orders of the filtered list; confirmed newsletter subscribers) and the audit log.

The files are real CSV (quotes, commas and line breaks survive a round trip) and safe to open in a
spreadsheet: a cell starting with = + - @ is prefixed with an apostrophe.
"""
import csv
import io
from datetime import datetime, timedelta, timezone

import pytest

from bookstore.extensions import db
from bookstore.models import NewsletterSubscriber, utcnow
from tests.factories import ADDRESS, placed
from tests.helpers import set_order


@pytest.fixture
def admin(auth):
    return auth.admin()


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "text/csv" and response.is_streamed
    assert response.headers["Content-Disposition"].startswith('attachment; filename="')
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_orders_export_is_the_filtered_list_as_safe_csv(client, admin, factories):
    """The orders export is the filtered list as CSV, with quoting, line breaks and formula-like values made harmless
    for spreadsheets."""
    book = factories.book(price_paise=12345, stock=20)
    hostile = dict(ADDRESS, firstName='=HYPERLINK("http://evil.example","x")', lastName='Rao, "Jr."',
                   city="@SUM(1+1)", address="Line one\nLine two")
    first = placed(client, [(book, 2)], shippingAddress=hostile)
    second = placed(client, [(book, 1)])
    set_order(second["_id"], status="shipped", created_at=datetime.now(timezone.utc) + timedelta(minutes=1))

    rows = read_csv(client.get("/api/admin/orders/export.csv", headers=admin))
    assert rows[0] == ["Order number", "Order ID", "Placed at (IST)", "Status", "Payment method", "Payment status",
                       "Customer", "E-mail", "Phone", "City", "State", "PIN", "Items", "Total (INR)",
                       "Paid after refunds (INR)", "Coupon", "Discount (INR)"]
    assert [row[1] for row in rows[1:]] == [second["_id"], first["_id"]]  # newest first
    row = rows[2]
    assert row[0] == first["orderNumber"] and row[3] == "pending" and row[4] == "cod"
    assert row[6] == '\'=HYPERLINK("http://evil.example","x") Rao, "Jr."'  # defused, quotes kept
    assert row[9] == "'@SUM(1+1)" and row[11] == "560001" and row[12] == "2" and row[13] == "286.90"
    placed_at = datetime.strptime(row[2], "%Y-%m-%d %H:%M")
    assert abs(placed_at - datetime.now(timezone(timedelta(hours=5, minutes=30))).replace(tzinfo=None)) \
        < timedelta(minutes=5)

    shipped = read_csv(client.get("/api/admin/orders/export.csv?status=shipped", headers=admin))
    assert [row[1] for row in shipped[1:]] == [second["_id"]]
    searched = read_csv(client.get(f"/api/admin/orders/export.csv?search={first['orderNumber']}", headers=admin))
    assert [row[1] for row in searched[1:]] == [first["_id"]]
    bad = client.get("/api/admin/orders/export.csv?status=lost", headers=admin)
    assert bad.status_code == 422 and bad.get_json()["success"] is False


def test_a_large_export_is_complete(client, admin, factories):
    """More orders than one read batch: every one is in the file once."""
    from bookstore.services import orders as order_service
    book = factories.book(stock=1000)
    order_service.EXPORT_BATCH, saved = 3, order_service.EXPORT_BATCH
    try:
        made = {placed(client, [(book, 1)])["_id"] for _ in range(7)}
        rows = read_csv(client.get("/api/admin/orders/export.csv", headers=admin))
    finally:
        order_service.EXPORT_BATCH = saved
    assert sorted(row[1] for row in rows[1:]) == sorted(made)


def _subscriber(email, confirmed=True, unsubscribed=False, minutes=0):
    db.session.add(NewsletterSubscriber(
        email=email, confirmed_at=utcnow() - timedelta(minutes=minutes) if confirmed else None,
        unsubscribed_at=utcnow() if unsubscribed else None))
    db.session.commit()


def test_newsletter_lists_and_exports_confirmed_subscribers_only(client, admin):
    """Only confirmed, still subscribed addresses are listed (newest first, paged) and exported (oldest
    first), with a value that a spreadsheet would take for a formula defused."""
    _subscriber("first@example.in", minutes=10)
    _subscriber("second@example.in", minutes=5)
    _subscriber("waiting@example.in", confirmed=False)
    _subscriber("gone@example.in", unsubscribed=True)
    _subscriber("-cmd@example.in", minutes=1)
    body = client.get("/api/admin/newsletter?limit=2", headers=admin).get_json()
    assert [s["email"] for s in body["subscribers"]] == ["-cmd@example.in", "second@example.in"]
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalSubscribers": 3, "totalPages": 2}
    rows = read_csv(client.get("/api/admin/newsletter/export.csv", headers=admin))
    assert rows[0] == ["E-mail", "Confirmed at (IST)"]
    assert [row[0] for row in rows[1:]] == ["first@example.in", "second@example.in", "'-cmd@example.in"]


def test_a_large_newsletter_export_is_complete(client, admin, monkeypatch):
    """More confirmed subscribers than one read batch: every one is in the file once, oldest first, and the
    unconfirmed address between them is not."""
    from bookstore.services import newsletter as newsletter_service
    monkeypatch.setattr(newsletter_service, "EXPORT_BATCH", 2)
    emails = [f"reader{n}@example.in" for n in range(5)]
    for email in emails[:3]:
        _subscriber(email)
    _subscriber("waiting@example.in", confirmed=False)
    for email in emails[3:]:
        _subscriber(email)
    rows = read_csv(client.get("/api/admin/newsletter/export.csv", headers=admin))
    assert [row[0] for row in rows[1:]] == emails


def test_the_audit_log_is_paged_and_filtered(client, admin, factories):
    """Entries newest first with actor, action, entity and the changed fields; filter by type and id."""
    first, second = factories.contact(), factories.contact()
    client.put(f"/api/contact/{first.id}/status", json={"status": "resolved"}, headers=admin)
    client.put(f"/api/contact/{second.id}/status", json={"status": "in-progress"}, headers=admin)
    book = factories.book(cover_key="covers/aa/x.webp")
    client.put(f"/api/books/{book.id}", json={"stock": 99}, headers=admin)

    body = client.get("/api/admin/audit", headers=admin).get_json()
    assert body["pagination"]["totalEntries"] == 3
    newest = body["entries"][0]
    assert (newest["action"], newest["entityType"], newest["entityId"]) == ("book.update", "book", str(book.id))
    assert newest["before"] == {"stock": 10} and newest["after"] == {"stock": 99}
    assert newest["actor"]["email"] == "admin@example.in" and newest["createdAt"]
    contacts = client.get("/api/admin/audit?entityType=contact", headers=admin).get_json()
    assert [e["entityId"] for e in contacts["entries"]] == [str(second.id), str(first.id)]
    one = client.get(f"/api/admin/audit?entityType=contact&entityId={first.id}", headers=admin).get_json()
    assert [e["after"] for e in one["entries"]] == [{"status": "resolved"}]


@pytest.mark.parametrize("path", ["/api/admin/newsletter", "/api/admin/audit", "/api/contact", "/api/admin/orders"])
@pytest.mark.parametrize("limit", ["0", "-1", "x"])
def test_admin_lists_refuse_a_bad_limit(client, admin, path, limit):
    """422, never a division by zero."""
    response = client.get(path, query_string={"limit": limit}, headers=admin)
    assert response.status_code == 422 and response.get_json()["success"] is False
