"""How order reads load (product §7.12): the admin's orders list, the dashboard's newest orders and the shopper's
My Orders answer summaries (what those lists show) in the same few statements whatever the page holds; one
order is read whole (lines, history, parcels with lines and events) in the same few statements however many
it has."""
import pytest

from bookstore.extensions import db
from tests.factories import placed
from tests.helpers import recorded_statements

SUMMARY = {"_id", "orderNumber", "status", "paymentStatus", "paymentMethod", "isPaid", "itemCount", "totalPrice",
           "promisedDelivery", "billNumber", "billDue", "billUrl", "link", "canCancel", "createdAt"}
ADMIN_SUMMARY = {"_id", "orderNumber", "status", "paymentStatus", "paymentMethod", "isPaid", "itemCount",
                 "totalPrice", "totalAmount", "user", "shippingAddress", "hasParcels", "billNumber", "createdAt"}


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def admin(auth) -> dict:
    return auth.admin("admin@example.in")


def busy_order(client, factories, admin, headers=None) -> dict:
    """An order of three books, shipped in two parcels with tracking events, its history four changes long."""
    books = [factories.book(title=f"Read Test {n}", stock=10) for n in range(3)]
    order = placed(client, [(books[0], 2), (books[1], 1), (books[2], 3)], headers=headers)
    url = f"/api/admin/orders/{order['_id']}/shipments"
    first = client.post(url, json={"courier": "DTDC", "awb": f"A{order['orderNumber'][-6:]}",
                                   "lines": [{"book": str(books[0].id)}]}, headers=admin)
    assert first.status_code == 201, first.get_json()
    second = client.post(url, json={"courier": "DTDC", "awb": f"B{order['orderNumber'][-6:]}"}, headers=admin)
    assert second.status_code == 201, second.get_json()
    for parcel in second.get_json()["order"]["shipments"]:
        for status in ("picked_up", "in_transit"):
            reply = client.post(f"{url}/{parcel['_id']}/events", json={"status": status}, headers=admin)
            assert reply.status_code == 201, reply.get_json()
    return order


def statements_for(client, path: str, headers: dict) -> tuple[int, dict]:
    """The statements a GET runs, from a fresh session (as a request in production starts)."""
    db.session.remove()
    with recorded_statements() as statements:
        response = client.get(path, headers=headers)
    assert response.status_code == 200, response.get_json()
    return len(statements), response.get_json()


def test_the_admin_orders_list_is_a_fixed_number_of_statements(client, factories, admin):
    """The admin's list (and the dashboard's newest orders) read the page's orders, their copies and whether a
    parcel went: the same statements for one plain order as for ten busy ones, and the rows are summaries."""
    placed(client, [(factories.book(), 1)])
    few, reply = statements_for(client, "/api/admin/orders", admin)
    recent_few, _ = statements_for(client, "/api/admin/dashboard/recent-orders", admin)
    for _ in range(3):
        busy_order(client, factories, admin)
    many, reply = statements_for(client, "/api/admin/orders", admin)
    recent_many, _ = statements_for(client, "/api/admin/dashboard/recent-orders", admin)

    assert many == few <= 7, (few, many)
    assert recent_many == recent_few <= 6, (recent_few, recent_many)
    rows = reply["orders"]
    assert len(rows) == 4 and all(set(row) == ADMIN_SUMMARY for row in rows)
    busy = rows[0]
    assert (busy["itemCount"], busy["hasParcels"], busy["status"]) == (6, True, "shipped")
    assert (rows[-1]["itemCount"], rows[-1]["hasParcels"]) == (1, False)


def test_my_orders_is_a_fixed_number_of_statements(client, factories, auth, admin):
    """My Orders reads the shopper's page of orders, their copies and which of them the shopper may no longer
    cancel (canCancel): the same statements for one order as for four busy ones; each row is the summary the list shows, and View Details reads the whole order."""
    shopper = auth.customer("reader@example.in")
    placed(client, [(factories.book(), 1)], headers=shopper)
    few, _ = statements_for(client, "/api/orders/mine", shopper)
    orders = [busy_order(client, factories, admin, headers=shopper) for _ in range(3)]
    many, reply = statements_for(client, "/api/orders/mine", shopper)

    assert many == few <= 8, (few, many)
    assert [row["orderNumber"] for row in reply["orders"][:3]] == [o["orderNumber"] for o in reversed(orders)]
    assert all(set(row) == SUMMARY for row in reply["orders"])
    assert reply["orders"][0]["itemCount"] == 6 and reply["totalOrders"] == 4


def test_one_order_is_read_whole_in_a_fixed_number_of_statements(client, factories, auth, admin):
    """One order (the shopper's read and the admin's) carries its lines, history and parcels with their lines
    and events, in the same statements for a one-line order in one parcel as for a busy one (an order without
    parcels skips the reads of parcel lines and events)."""
    shopper = auth.customer("whole@example.in")
    plain = placed(client, [(factories.book(), 1)], headers=shopper)
    shipped = client.post(f"/api/admin/orders/{plain['_id']}/shipments", json={"courier": "DTDC", "awb": "PLAIN1"},
                          headers=admin)
    assert shipped.status_code == 201, shipped.get_json()
    busy = busy_order(client, factories, admin, headers=shopper)
    for path, headers in (("/api/orders/{}", shopper), ("/api/admin/orders/{}", admin)):
        few, _ = statements_for(client, path.format(plain["_id"]), headers)
        many, reply = statements_for(client, path.format(busy["_id"]), headers)
        # 3 of them sign the caller in, 1 finds no returns, 1 no refunds (RTO parcels, part refunds)
        assert many == few <= 12, (path, few, many)
        order = reply["order"]
        assert len(order["orderItems"]) == 3 and len(order["statusHistory"]) == 3
        assert [len(parcel["events"]) for parcel in order["shipments"]] == [2, 2]
        assert [sum(line["quantity"] for line in parcel["lines"]) for parcel in order["shipments"]] == [2, 4]
