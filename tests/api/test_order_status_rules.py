"""How an order moves (product §7.3): forward one step at a time; cancelled only from pending or
processing; back or past a step only with a reason kept in the history; an online order moves on
only once paid; a delivered cash-on-delivery order is paid (the courier collected the cash)."""
import pytest

from tests.api.test_admin_orders import book, move  # noqa: F401  (fixtures)
from tests.api.test_payments import create_razorpay_order, online_order, pay, verify
from tests.factories import placed
from tests.helpers import assert_refused, order_row, set_order, stock_of


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.mark.parametrize("start, target", [("pending", "shipped"), ("pending", "delivered"),
                                           ("processing", "delivered"), ("shipped", "processing"),
                                           ("delivered", "pending")])
def test_back_or_past_a_step_needs_a_reason(client, admin, book, start, target):
    """Without a note the move is 422 on `note` and nothing changes; with one it is made and the reason
    is in the history."""
    order = placed(client, [(book, 1)])
    set_order(order["_id"], status=start)
    response = move(client, order, target, admin)
    body = assert_refused(response, 422, field="note")
    assert "needs a reason" in body["message"]
    assert order_row(order["_id"]).status == start and len(order_row(order["_id"]).history) == 1

    response = move(client, order, target, admin, note="Courier scanned it late")
    assert response.status_code == 200, response.get_json()
    last = order_row(order["_id"]).history[-1]
    assert (last.status, last.note) == (target, "Courier scanned it late")


def test_a_shipped_order_cannot_be_cancelled(client, admin, book):
    """Once shipped the copies have left: cancelling is 409 and the stock stays taken."""
    order = placed(client, [(book, 2)])
    set_order(order["_id"], status="shipped")
    assert_refused(move(client, order, "cancelled", admin, note="Shopper asked"), 409,
                   "A shipped order cannot be cancelled: it has left the shop.")
    assert order_row(order["_id"]).status == "shipped" and stock_of(book) == (8, 2)


@pytest.mark.parametrize("target", ["processing", "shipped", "delivered"])
def test_an_unpaid_online_order_cannot_move_on(client, razorpay, admin, book, target):
    """Until Razorpay's payment is recorded, an online order can only be cancelled (409 otherwise, even
    with a reason); once paid it moves on."""
    order = online_order(client, book)
    response = move(client, order, target, admin, note="Looks paid to me")
    assert_refused(response, 409, "This online order is not paid yet. It can move on once the payment is received.")
    assert order_row(order["_id"]).status == "pending"
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    assert move(client, order, "processing", admin).status_code == 200


def test_an_unpaid_online_order_can_be_cancelled(client, razorpay, admin, book):
    """An administrator may cancel an unpaid online order, which releases its stock."""
    order = online_order(client, book)
    create_razorpay_order(client, order)
    assert move(client, order, "cancelled", admin).status_code == 200
    assert order_row(order["_id"]).status == "cancelled" and stock_of(book) == (10, 0)


def test_a_delivered_cash_order_is_paid(client, admin, book):
    """Delivered cash on delivery means the cash was collected: paymentStatus paid with a time, so the
    order, the CSV and the revenue agree."""
    order = placed(client, [(book, 1)])
    for status in ("processing", "shipped", "delivered"):
        assert move(client, order, status, admin).status_code == 200
    shown = client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]
    assert (shown["paymentStatus"], shown["isPaid"]) == ("paid", True) and shown["paidAt"]
    rows = client.get("/api/admin/orders/export.csv", headers=admin).get_data(as_text=True)
    assert ",delivered,cod,paid," in rows


def test_admin_search_finds_an_order_by_any_part_of_its_number(client, admin, book):
    """Order numbers are BK-<year>-<6 random characters>; any part of one finds the order."""
    order = placed(client, [(book, 1)])
    other = placed(client, [(book, 1)])
    number = order["orderNumber"]
    assert number != other["orderNumber"]
    for part in (number, number[-6:], number[-4:-1].lower()):
        found = client.get("/api/admin/orders", query_string={"search": part}, headers=admin).get_json()["orders"]
        assert order["_id"] in [o["_id"] for o in found]
