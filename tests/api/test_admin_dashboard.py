"""The dashboard's figures match the database (product §10.8: revenue is paid orders plus delivered
cash-on-delivery orders, shipping included, never cancelled ones; days are IST days)."""
from datetime import datetime, timedelta, timezone

import pytest

from bookstore.services.india import IST
from tests.factories import placed
from tests.helpers import set_order


@pytest.fixture
def admin(auth):
    return auth.admin()


def stats(client, admin) -> dict:
    response = client.get("/api/admin/dashboard/stats", headers=admin)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    return body


def test_an_empty_shop_has_zero_figures_and_30_empty_days(client, admin):
    """An empty shop's dashboard shows zero figures and 30 days of revenue ending today in India's time zone."""
    body = stats(client, admin)
    assert (body["totalBooks"], body["totalOrders"], body["totalUsers"], body["totalRevenue"]) == (0, 0, 0, 0)
    assert body["ordersByStatus"] == {s: 0 for s in ("pending", "processing", "shipped", "delivered", "cancelled",
                                                            "returned")}
    assert body["timezone"] == "Asia/Kolkata" and len(body["revenueByDay"]) == 30
    today = datetime.now(IST).date()
    assert body["revenueByDay"][-1]["date"] == today.isoformat()
    assert body["revenueByDay"][0]["date"] == (today - timedelta(days=29)).isoformat()
    assert all(day["revenue"] == 0 and day["orders"] == 0 for day in body["revenueByDay"])
    assert body["lowStock"] == []


def test_revenue_counts_paid_and_delivered_cash_orders_only(client, admin, auth, factories):
    """Five orders of ₹540 each (₹500 + ₹40 shipping): only the paid one and the delivered COD one count."""
    book = factories.book(price_paise=50000, stock=50)
    factories.book(stock=2, title="Almost Gone")
    factories.book(archived=True, title="Archived")
    auth.customer("one@example.in")
    orders = [placed(client, [(book, 1)]) for _ in range(5)]
    set_order(orders[0]["_id"], status="delivered")                                   # COD delivered: counts
    set_order(orders[1]["_id"], payment_method="online", payment_status="paid", status="processing")  # counts
    set_order(orders[2]["_id"], status="cancelled")                                   # never
    set_order(orders[3]["_id"], payment_method="online", payment_status="refunded", status="cancelled")  # never
    set_order(orders[4]["_id"], status="shipped")                                     # COD not delivered yet

    body = stats(client, admin)
    assert body["totalRevenue"] == 1080
    assert body["totalOrders"] == 5 and body["totalUsers"] == 1  # the admin is not a shopper
    assert body["totalBooks"] == 2 and body["inStockBooks"] == 2 and body["archivedBooks"] == 1
    assert body["ordersByStatus"] == {"pending": 0, "processing": 1, "shipped": 1, "delivered": 1, "cancelled": 2,
                                      "returned": 0}
    assert body["revenueByDay"][-1] == {"date": datetime.now(IST).date().isoformat(), "revenue": 1080, "orders": 2}
    assert [b["title"] for b in body["lowStock"]] == ["Almost Gone"]
    assert body["lowStock"][0]["stock"] == 2 and body["lowStockThreshold"] == 5


def test_revenue_days_are_indian_days(client, admin, factories):
    """An order at 20:00 UTC belongs to the next IST day (01:30); one from 31 days ago is outside the chart."""
    book = factories.book(price_paise=10000, stock=50)
    today = datetime.now(IST).date()
    yesterday_ist_evening = datetime.combine(today - timedelta(days=2), datetime.min.time(), timezone.utc) \
        + timedelta(hours=20)  # 20:00 UTC two days ago = 01:30 IST one day ago
    late, old = placed(client, [(book, 1)]), placed(client, [(book, 2)])
    set_order(late["_id"], status="delivered", created_at=yesterday_ist_evening)
    set_order(old["_id"], status="delivered", created_at=datetime.now(timezone.utc) - timedelta(days=31))
    days = {day["date"]: day for day in stats(client, admin)["revenueByDay"]}
    assert days[(today - timedelta(days=1)).isoformat()] == {
        "date": (today - timedelta(days=1)).isoformat(), "revenue": 140, "orders": 1}
    assert days[(today - timedelta(days=2)).isoformat()]["orders"] == 0
    assert sum(day["orders"] for day in days.values()) == 1
    assert stats(client, admin)["totalRevenue"] == 140 + 240


def test_recent_orders_are_the_ten_newest_with_names(client, admin, factories):
    """Recent orders are the ten newest, newest first, with the buyer's name."""
    book = factories.book(stock=100)
    orders = [placed(client, [(book, 1)]) for _ in range(12)]
    for n, order in enumerate(orders):
        set_order(order["_id"], created_at=datetime.now(timezone.utc) - timedelta(minutes=100 - n))
    response = client.get("/api/admin/dashboard/recent-orders", headers=admin)
    assert response.status_code == 200
    shown = response.get_json()["orders"]
    assert [o["_id"] for o in shown] == [o["_id"] for o in reversed(orders)][:10]
    assert shown[0]["user"] == {"firstName": "Asha", "lastName": "Verma"}
    assert shown[0]["totalAmount"] == shown[0]["totalPrice"] == orders[-1]["totalPrice"]


def test_refunds_that_keep_failing_are_flagged(client, admin, factories):
    """A cancelled order whose refund has failed three times or more is counted for the admin; one
    that failed once, or was refunded, is not."""
    book = factories.book(stock=10)
    orders = [placed(client, [(book, 1)]) for _ in range(3)]
    set_order(orders[0]["_id"], payment_method="online", status="cancelled", payment_status="refund_pending",
              refund_attempts=3, refund_error="The payment service did not answer in time.")
    set_order(orders[1]["_id"], payment_method="online", status="cancelled", payment_status="refund_pending",
              refund_attempts=1)
    set_order(orders[2]["_id"], payment_method="online", status="cancelled", payment_status="refunded",
              refund_attempts=4)
    assert stats(client, admin)["refundsNeedingAttention"] == 1
