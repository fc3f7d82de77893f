"""A large cash order's `confirmBy` (product §5.7): the order reply, the admin's order and the order link show
until when it waits for the shop's confirmation; null for other orders and once it is confirmed."""
from datetime import datetime

from tests.factories import ADDRESS, order_payload

CONTACT = {**ADDRESS, "email": "school@example.in"}


def _moment(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def test_a_large_cash_order_shows_until_when_it_waits(client, auth, factories):
    """The order reply, the order link's read and the admin's read carry confirmBy 24 hours after placing; a
    small cash order has null; once the admin moves it to processing it is null too."""
    books = [factories.book(title=f"Bulk {n}", price_paise=20000, stock=100) for n in range(2)]
    large = client.post("/api/orders", json=order_payload([(books[0], 6), (books[1], 5)], shippingAddress=CONTACT))
    assert large.status_code == 201, large.get_json()
    order = large.get_json()["order"]
    waited = _moment(order["confirmBy"]) - _moment(order["createdAt"])
    assert 23.9 * 3600 < waited.total_seconds() <= 24 * 3600 + 1
    assert client.get("/api" + order["link"]).get_json()["order"]["confirmBy"] == order["confirmBy"]
    admin = auth.admin()
    seen = client.get(f"/api/admin/orders/{order['_id']}", headers=admin)
    assert seen.status_code == 200 and seen.get_json()["order"]["confirmBy"] == order["confirmBy"]

    small = client.post("/api/orders", json=order_payload([(books[0], 2)], shippingAddress=CONTACT))
    assert small.status_code == 201 and small.get_json()["order"]["confirmBy"] is None

    moved = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "processing"}, headers=admin)
    assert moved.status_code == 200 and moved.get_json()["order"]["confirmBy"] is None
