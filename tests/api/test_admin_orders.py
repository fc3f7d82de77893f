"""Administrators' order list and status changes (product §7.3, §7.6): every change recorded and mailed,
never out of cancelled, never delivered to cancelled, stock given back once.

Runs on the shop app (fake Razorpay and the SMTP sink) so refunds and e-mails are real.
"""
import pytest

from tests.factories import ADDRESS, placed
from tests.helpers import assert_refused, order_row, set_order, stock_of, subjects


@pytest.fixture
def app(shop_app):
    return shop_app


def move(client, order, status, headers, **extra):
    return client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": status, **extra}, headers=headers)


@pytest.fixture
def book(factories):
    return factories.book(title="CLAT Legal Reasoning", stock=10)


def test_an_order_moves_through_its_statuses(client, smtp_sink, admin, book):
    """pending → processing → shipped → delivered: each change is recorded with the admin and mailed."""
    order = placed(client, [(book, 1)])
    number = order["orderNumber"]
    for status in ("processing", "shipped", "delivered"):
        response = move(client, order, status, admin)
        assert response.status_code == 200, response.get_json()
        reply = response.get_json()
        assert reply["success"] is True and reply["message"] == f"Order is now {status}"
        assert reply["order"]["status"] == status
        assert order_row(order["_id"]).status == status

    history = order_row(order["_id"]).history
    assert [(h.status, h.by) for h in history] == [
        ("pending", "customer"), ("processing", f"admin:{admin.id}"), ("shipped", f"admin:{admin.id}"),
        ("delivered", f"admin:{admin.id}")]
    shown = client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]
    assert [h["status"] for h in shown["statusHistory"]] == ["pending", "processing", "shipped", "delivered"]
    assert all(h["at"] for h in shown["statusHistory"])
    assert subjects(smtp_sink) == [f"Order {number} placed", f"Order {number} is now processing",
                                   f"Order {number} is now shipped", f"Order {number} is now delivered"]
    assert all(message["To"] == ADDRESS["email"] for message in smtp_sink.messages)
    assert stock_of(book) == (9, 1)


def test_a_note_is_kept_in_the_history_and_the_mail(client, smtp_sink, admin, book):
    """An admin's note travels with the status change."""
    order = placed(client, [(book, 1)])
    assert move(client, order, "shipped", admin, note="Blue Dart AWB 12345").status_code == 200
    assert order_row(order["_id"]).history[-1].note == "Blue Dart AWB 12345"
    assert "Blue Dart AWB 12345" in smtp_sink.body(-1)


def test_the_same_status_again_changes_nothing(client, smtp_sink, admin, book):
    """Setting the status an order already has records and mails nothing."""
    order = placed(client, [(book, 1)])
    assert move(client, order, "pending", admin).status_code == 200
    assert len(order_row(order["_id"]).history) == 1 and len(smtp_sink.messages) == 1


def test_a_delivered_order_cannot_be_cancelled(client, smtp_sink, admin, book):
    """delivered → cancelled is 409; the order, its stock and the mails stay as they were."""
    order = placed(client, [(book, 1)])
    set_order(order["_id"], status="delivered")
    response = move(client, order, "cancelled", admin)
    assert_refused(response, 409, "A delivered order cannot be cancelled. Use a return instead.")
    row = order_row(order["_id"])
    assert row.status == "delivered" and row.stock_released is False
    assert stock_of(book) == (9, 1) and len(smtp_sink.messages) == 1


@pytest.mark.parametrize("status", ["pending", "processing", "shipped", "delivered"])
def test_a_cancelled_order_cannot_change_status(client, smtp_sink, admin, book, status):
    """Out of cancelled is 409 (its stock was released); nothing changes."""
    order = placed(client, [(book, 2)])
    assert move(client, order, "cancelled", admin).status_code == 200
    assert stock_of(book) == (10, 0)
    response = move(client, order, status, admin)
    assert_refused(response, 409, "A cancelled order cannot change status: its stock has been released.")
    assert order_row(order["_id"]).status == "cancelled"
    assert stock_of(book) == (10, 0) and len(smtp_sink.messages) == 2


@pytest.mark.parametrize("start", ["pending", "processing"])
def test_admin_cancel_restocks_exactly_once(client, smtp_sink, admin, book, start):
    """Cancelling gives the copies back once, records who did it and mails the shopper; repeating it
    gives nothing back again."""
    order = placed(client, [(book, 3)])
    set_order(order["_id"], status=start)
    response = move(client, order, "cancelled", admin)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["order"]["status"] == "cancelled"
    assert stock_of(book) == (10, 0)
    row = order_row(order["_id"])
    assert (row.history[-1].status, row.history[-1].by) == ("cancelled", f"admin:{admin.id}")
    assert row.stock_released is True and row.cancelled_at is not None
    assert subjects(smtp_sink)[-1] == f"Order {order['orderNumber']} is now cancelled"

    assert move(client, order, "cancelled", admin).status_code == 200
    assert stock_of(book) == (10, 0) and len(smtp_sink.messages) == 2


def test_admin_cancel_of_a_paid_order_refunds_it(client, razorpay, smtp_sink, admin, book):
    """A paid online order cancelled by the shop is refunded in full through Razorpay."""
    order = placed(client, [(book, 2)], "online")
    rp_order = client.post("/api/payments/create-order", json={"orderId": order["_id"]}).get_json()["order"]["id"]
    fields = razorpay.pay(rp_order)
    assert client.post("/api/payments/verify", json=fields).status_code == 200

    response = move(client, order, "cancelled", admin)
    assert response.status_code == 200, response.get_json()
    assert (response.get_json()["order"]["status"], response.get_json()["order"]["paymentStatus"]) == \
        ("cancelled", "refunded")
    refunds = [r for r in razorpay.calls("POST", "/v1/payments/") if r.path.endswith("/refund")]
    assert len(refunds) == 1 and refunds[0].body["amount"] == order["totalPrice"] * 100
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "refunded"
    assert stock_of(book) == (10, 0)
    assert "is being refunded" in smtp_sink.body(-1)


@pytest.mark.parametrize("payload, message", [
    ({"status": "lost"}, "Status must be one of: pending, processing, shipped, delivered, cancelled, returned."),
    ({"status": "Shipped"}, "Status must be one of: pending, processing, shipped, delivered, cancelled, returned."),
    ({"status": ""}, "Status must be one of: pending, processing, shipped, delivered, cancelled, returned."),
    ({"status": None}, "Status is required."),
    ({}, "Status is required."),
    ({"status": "shipped", "note": "x" * 301}, None),
])
def test_an_unknown_status_is_422(client, smtp_sink, admin, book, payload, message):
    """Only the five statuses exist; anything else is 422 and changes nothing."""
    order = placed(client, [(book, 1)])
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json=payload, headers=admin)
    assert_refused(response, 422, message)
    assert order_row(order["_id"]).status == "pending" and len(smtp_sink.messages) == 1


def test_status_changes_are_for_admins_only(client, auth, smtp_sink, book):
    """A shopper's token is 403 and no token 401, even for the shopper's own order; an unknown order 404."""
    shopper = auth.customer()
    order = placed(client, [(book, 1)], headers=shopper)
    assert_refused(move(client, order, "shipped", shopper), 403, "Administrator access required.")
    assert_refused(move(client, order, "shipped", {}), 401)
    assert_refused(client.get("/api/admin/orders", headers=shopper), 403)
    assert_refused(client.get("/api/admin/orders"), 401)
    assert_refused(client.get(f"/api/admin/orders/{order['_id']}", headers=shopper), 403)
    assert order_row(order["_id"]).status == "pending" and len(smtp_sink.messages) == 1
    admin = auth.admin()
    assert_refused(move(client, {"_id": "f" * 24}, "shipped", admin), 404, "Order not found.")
    assert_refused(client.get("/api/admin/orders/" + "f" * 24, headers=admin), 404)


# --- the list --------------------------------------------------------------------------------------

def test_the_list_is_paged_ten_at_a_time_newest_first(client, admin, factories):
    """Default page size 10, newest first, with pagination {page, limit, total, totalOrders, totalPages}."""
    book = factories.book(stock=20)
    ids = [placed(client, [(book, 1)])["_id"] for _ in range(12)]

    response = client.get("/api/admin/orders", headers=admin)
    assert response.status_code == 200
    reply = response.get_json()
    assert reply["success"] is True
    assert reply["pagination"] == {"page": 1, "limit": 10, "total": 12, "totalOrders": 12, "totalPages": 2}
    assert [o["_id"] for o in reply["orders"]] == ids[::-1][:10]
    first = reply["orders"][0]
    assert first["user"] == {"firstName": "Asha", "lastName": "Verma"}
    assert first["totalAmount"] == first["totalPrice"] and first["orderNumber"]
    second = client.get("/api/admin/orders?page=2", headers=admin).get_json()
    assert [o["_id"] for o in second["orders"]] == ids[1::-1]
    assert second["pagination"]["page"] == 2
    limited = client.get("/api/admin/orders?limit=5&page=3", headers=admin).get_json()
    assert len(limited["orders"]) == 2 and limited["pagination"]["totalPages"] == 3
    assert client.get("/api/admin/orders?limit=500", headers=admin).get_json()["pagination"]["limit"] == 100


@pytest.mark.parametrize("query", ["page=0", "limit=0", "status=lost", "page=x", "search=" + "x" * 101])
def test_bad_list_parameters_are_422(client, admin, query):
    """Impossible pages, limits and statuses are 422, not 500."""
    assert_refused(client.get(f"/api/admin/orders?{query}", headers=admin), 422)


def test_the_list_filters_by_status(client, admin, factories):
    """status= shows only orders in that status, with totals for the filter."""
    book = factories.book(stock=20)
    orders = [placed(client, [(book, 1)]) for _ in range(4)]
    for order in orders[:2]:
        assert move(client, order, "shipped", admin, note="Packed and shipped at once").status_code == 200

    shipped = client.get("/api/admin/orders?status=shipped", headers=admin).get_json()
    assert sorted(o["_id"] for o in shipped["orders"]) == sorted(o["_id"] for o in orders[:2])
    assert shipped["pagination"]["total"] == shipped["pagination"]["totalOrders"] == 2
    pending = client.get("/api/admin/orders?status=pending", headers=admin).get_json()
    assert {o["status"] for o in pending["orders"]} == {"pending"} and pending["pagination"]["total"] == 2
    assert client.get("/api/admin/orders?status=delivered", headers=admin).get_json()["orders"] == []


def test_the_list_searches_number_name_email_and_phone(client, admin, factories):
    """search= finds orders by order number (any case), name, e-mail or phone."""
    book = factories.book(stock=20)
    meera = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "firstName": "Meera", "lastName": "Iyer",
                                                         "email": "meera.iyer@example.in", "phone": "9123456780"})
    kabir = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "firstName": "Kabir", "lastName": "Singh",
                                                         "email": "kabir@mail.example.com", "phone": "8765432109"})
    asha = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "firstName": "Asha", "lastName": "Verma",
                                                        "email": "asha@example.in", "phone": "7000000001"})

    def found(search):
        response = client.get("/api/admin/orders", query_string={"search": search}, headers=admin)
        assert response.status_code == 200, response.get_json()
        return sorted(o["_id"] for o in response.get_json()["orders"])

    assert found(meera["orderNumber"]) == [meera["_id"]]
    assert found(kabir["orderNumber"].lower()) == [kabir["_id"]]
    assert found("Meera Iyer") == [meera["_id"]]
    assert found("singh") == [kabir["_id"]]
    assert found("KABIR@mail") == [kabir["_id"]]
    assert found("example.in") == sorted([meera["_id"], asha["_id"]])
    assert found("9123456780") == [meera["_id"]]
    assert found("87654") == [kabir["_id"]]
    assert found("nobody") == []
    narrowed = client.get("/api/admin/orders", query_string={"search": "kabir", "status": "shipped"},
                          headers=admin).get_json()
    assert narrowed["orders"] == [] and narrowed["pagination"]["total"] == 0



def test_status_changes_are_in_the_audit_log(client, admin, book):
    """Each admin move is audited with the admin, the order's _id, and the status before and after."""
    from bookstore.models import AuditEntry
    from bookstore.extensions import db
    order = placed(client, [(book, 1)])
    assert move(client, order, "processing", admin, note="AWB 1").status_code == 200
    assert move(client, order, "cancelled", admin).status_code == 200
    assert move(client, order, "pending", admin).status_code == 409  # refused: no entry
    entries = db.session.scalars(db.select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [(e.action, e.entity_type, e.entity_id, e.actor_id, e.before, e.after) for e in entries] == [
        ("order.status", "order", order["_id"], admin.id, {"status": "pending", "note": None},
         {"status": "processing", "note": "AWB 1"}),
        ("order.status", "order", order["_id"], admin.id, {"status": "processing"}, {"status": "cancelled"}),
    ]
