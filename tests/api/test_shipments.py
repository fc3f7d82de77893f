"""Shipping an order by hand (product §7.8): whole or partial shipments, tracking events typed by an
administrator, delivered orders completed, parcels returned to origin received back, the couriers list,
and every refusal (nothing written, a clear message).

Runs on the shop app (fake Razorpay and the SMTP sink) so payments and e-mails are real.
"""
from datetime import timedelta

import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import AuditEntry, OutboxMail, Shipment, ShipmentEvent, utcnow
from tests.api.test_payments import online_order, pay, verify
from tests.factories import ADDRESS, SHIPPING_PAISE, placed
from tests.helpers import assert_refused, order_row, set_order, stock_of


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def books(factories):
    return factories.book(title="GATE Mechanical", stock=10), factories.book(title="CAT Quant", stock=10)


def ship(client, order, headers, **body):
    return client.post(f"/api/admin/orders/{order['_id']}/shipments", json=body, headers=headers)


def event(client, order, shipment_id, headers, **body):
    return client.post(f"/api/admin/orders/{order['_id']}/shipments/{shipment_id}/events", json=body, headers=headers)


def receive(client, order, shipment_id, headers):
    return client.post(f"/api/admin/orders/{order['_id']}/shipments/{shipment_id}/received", headers=headers)


def shipment_count() -> int:
    db.session.expire_all()
    return len(db.session.scalars(select(Shipment)).all())


def last_mail() -> OutboxMail:
    db.session.expire_all()
    return db.session.scalars(select(OutboxMail).order_by(OutboxMail.id.desc())).first()


def test_shipping_a_whole_order(client, auth, admin, books):
    """Courier and AWB for every line: the order is shipped, the tracking link comes from the courier's
    template, the shopper's and admin's order replies carry the shipment, it is audited and the shipped
    mail names courier, AWB and link."""
    shopper = auth.customer()
    order = placed(client, [(books[0], 2), (books[1], 1)], headers=shopper)
    response = ship(client, order, admin, courier="Delhivery", awb="DL1234567890")
    assert response.status_code == 201, response.get_json()
    reply = response.get_json()
    assert reply["order"]["status"] == "shipped"
    (shipment,) = reply["order"]["shipments"]
    assert shipment["courier"] == "Delhivery" and shipment["awb"] == "DL1234567890"
    assert shipment["trackingUrl"] == "https://www.delhivery.com/track/package/DL1234567890"
    assert shipment["aggregator"] == "manual" and shipment["events"] == [] and shipment["status"] == "shipped"
    assert sorted((line["title"], line["quantity"]) for line in shipment["lines"]) == [
        ("CAT Quant", 1), ("GATE Mechanical", 2)]

    mine = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]
    assert [(s["courier"], s["awb"], s["trackingUrl"]) for s in mine["shipments"]] == [
        ("Delhivery", "DL1234567890", "https://www.delhivery.com/track/package/DL1234567890")]
    assert "labelUrl" not in mine["shipments"][0]

    row = order_row(order["_id"])
    assert row.status == "shipped" and row.history[-1].note == "Shipped by Delhivery, AWB DL1234567890"
    assert row.history[-1].by == f"admin:{admin.id}"
    mail = last_mail()
    assert mail.subject == f"Order {order['orderNumber']} is now shipped"
    assert "Delhivery, AWB DL1234567890" in mail.body
    assert "https://www.delhivery.com/track/package/DL1234567890" in mail.body
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "order.ship")).one()
    assert entry.entity_id == order["_id"] and entry.after["shipment"]["awb"] == "DL1234567890"
    assert entry.before["status"] == "pending" and entry.after["status"] == "shipped"


def test_a_typed_tracking_url_wins_and_other_has_none(client, admin, books):
    """A tracking URL sent with the shipment is kept; the courier Other has no template, so none."""
    first = placed(client, [(books[0], 1)])
    response = ship(client, first, admin, courier="Blue Dart", awb="BD-77/1", trackingUrl="https://track.example/BD-77")
    assert response.get_json()["order"]["shipments"][0]["trackingUrl"] == "https://track.example/BD-77"
    second = placed(client, [(books[1], 1)])
    response = ship(client, second, admin, courier="Other", awb="LOCAL9", packages=2)
    shipment = response.get_json()["order"]["shipments"][0]
    assert (shipment["trackingUrl"], shipment["packages"]) == ("", 2)


def test_a_partial_shipment_then_the_rest(client, admin, books):
    """Lines shipped now and later: a pending order becomes processing with the first parcel (mailed as
    part of the order) and shipped when every copy is in a parcel; quantities may be split."""
    order = placed(client, [(books[0], 3), (books[1], 1)])
    response = ship(client, order, admin, courier="DTDC", awb="D100", lines=[{"book": str(books[0].id), "quantity": 2}])
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["order"]["status"] == "processing"
    assert last_mail().subject == f"Part of your order {order['orderNumber']} has shipped"
    assert "DTDC, AWB D100" in last_mail().body and "2 × GATE Mechanical" in last_mail().body

    response = ship(client, order, admin, courier="DTDC", awb="D101", lines=[{"book": str(books[1].id)}])
    assert response.get_json()["order"]["status"] == "processing"
    response = ship(client, order, admin, courier="Ekart", awb="E200")
    assert response.status_code == 201, response.get_json()
    reply = response.get_json()["order"]
    assert reply["status"] == "shipped"
    assert [(s["awb"], [(line["title"], line["quantity"]) for line in s["lines"]]) for s in reply["shipments"]] == [
        ("D100", [("GATE Mechanical", 2)]), ("D101", [("CAT Quant", 1)]), ("E200", [("GATE Mechanical", 1)])]
    assert [h.status for h in order_row(order["_id"]).history] == ["pending", "processing", "shipped"]
    mail = last_mail()
    assert mail.subject == f"Order {order['orderNumber']} is now shipped"
    assert all(text in mail.body for text in ("DTDC, AWB D100", "DTDC, AWB D101", "Ekart, AWB E200"))


@pytest.mark.parametrize("body, status, message, field", [
    ({"courier": "Delhivery", "awb": ""}, 422, "AWB number is required.", "awb"),
    ({"courier": "Delhivery", "awb": "   "}, 422, "AWB number is required.", "awb"),
    ({"awb": "X1"}, 422, "Courier is required.", "courier"),
    ({"courier": "Pigeon Post", "awb": "X1"}, 422, "Unknown courier: choose one from the shop's list.",
     "courier"),
    ({"courier": "DTDC", "awb": "X 1"}, 422, "AWB number may hold only letters, digits, - and /.", "awb"),
    ({"courier": "DTDC", "awb": "X1", "trackingUrl": "javascript:alert(1)"}, 422,
     "Tracking URL must be a web address starting with https:// or http://.", "trackingUrl"),
    ({"courier": "DTDC", "awb": "X1", "lines": []}, 422, "Choose between 1 and 20 lines to ship.", "lines"),
    ({"courier": "DTDC", "awb": "X1", "lines": [{"book": "999999"}]}, 422, "Book 999999 is not in this order.",
     "lines"),
    ({"courier": "DTDC", "awb": "X1", "packages": 0}, 422, "Packages must be between 1 and 50.", "packages"),
    ({"courier": "DTDC", "awb": "X1", "aggregator": "fedex"}, 422, "Aggregator must be manual or shiprocket.",
     "aggregator"),
])
def test_bad_shipments_are_refused(client, admin, books, body, status, message, field):
    """Each bad request is refused with its message on its field; nothing is shipped."""
    order = placed(client, [(books[0], 1)])
    assert_refused(ship(client, order, admin, **body), status, message, field)
    assert shipment_count() == 0 and order_row(order["_id"]).status == "pending"


def test_lines_already_shipped_or_too_many_are_refused(client, admin, books):
    """A line already in a parcel, more copies than are left, or nothing left at all: 409."""
    order = placed(client, [(books[0], 2), (books[1], 1)])
    assert ship(client, order, admin, courier="DTDC", awb="A1", lines=[{"book": str(books[1].id)}]).status_code == 201
    assert_refused(ship(client, order, admin, courier="DTDC", awb="A2", lines=[{"book": str(books[1].id)}]), 409,
                   "“CAT Quant” has already been shipped.")
    assert_refused(ship(client, order, admin, courier="DTDC", awb="A3",
                        lines=[{"book": str(books[0].id), "quantity": 3}]), 409,
                   "Only 2 of 2 copies of “GATE Mechanical” are left to ship.")
    assert ship(client, order, admin, courier="DTDC", awb="A4").status_code == 201
    assert_refused(ship(client, order, admin, courier="DTDC", awb="A5"), 409,
                   "Every line of this order has already been shipped.")
    assert shipment_count() == 2


def test_an_awb_is_used_once_per_courier(client, admin, books):
    """The same courier's AWB on a second order is 409 naming the order that has it; another courier's
    parcel may carry the same number."""
    first = placed(client, [(books[0], 1)])
    second = placed(client, [(books[1], 1)])
    assert ship(client, first, admin, courier="DTDC", awb="SAME1").status_code == 201
    assert_refused(ship(client, second, admin, courier="DTDC", awb="SAME1"), 409,
                   f"AWB SAME1 of DTDC is already used by order {first['orderNumber']}.")
    assert ship(client, second, admin, courier="Ekart", awb="SAME1").status_code == 201


def test_cancelled_unpaid_and_finished_orders_cannot_ship(client, razorpay, admin, books):
    """Cancelled: 409; an online order not paid yet: 409 until it is paid; delivered: 409."""
    cancelled = placed(client, [(books[0], 1)])
    set_order(cancelled["_id"], status="cancelled")
    assert_refused(ship(client, cancelled, admin, courier="DTDC", awb="C1"), 409, "A cancelled order cannot be shipped.")

    unpaid = online_order(client, books[1])
    assert_refused(ship(client, unpaid, admin, courier="DTDC", awb="C2"), 409,
                   "This online order is not paid yet. It can be shipped once the payment is received.")
    assert verify(client, pay(client, razorpay, unpaid)).status_code == 200
    assert ship(client, unpaid, admin, courier="DTDC", awb="C2").get_json()["order"]["status"] == "shipped"

    delivered = placed(client, [(books[0], 1)])
    set_order(delivered["_id"], status="delivered")
    assert_refused(ship(client, delivered, admin, courier="DTDC", awb="C3"), 409, "A delivered order has nothing left to ship.")
    assert shipment_count() == 1


def test_an_unknown_order_is_404(client, admin):
    """Shipping an order that does not exist is 404."""
    assert_refused(ship(client, {"_id": "nope"}, admin, courier="DTDC", awb="N1"), 404, "Order not found.")


def test_a_partly_shipped_order_cannot_be_cancelled(client, auth, admin, books):
    """Copies that left the shop cannot be restocked by a cancel: the admin and the shopper get 409."""
    shopper = auth.customer()
    order = placed(client, [(books[0], 1), (books[1], 1)], headers=shopper)
    ship(client, order, admin, courier="DTDC", awb="P1", lines=[{"book": str(books[0].id)}])
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert_refused(response, 409, "Part of this order has already shipped, so it cannot be cancelled.")
    assert_refused(client.post(f"/api/orders/{order['_id']}/cancel", headers=shopper), 409,
                   "Part of this order has already shipped, so it can no longer be cancelled.")
    assert order_row(order["_id"]).status == "processing" and stock_of(books[0]) == (9, 1)


def test_tracking_events_until_delivered_complete_a_cash_order(client, auth, admin, books):
    """Picked up, in transit, out for delivery, delivered: each is listed on the shipment in time order;
    delivered completes the order, a cash-on-delivery order becomes paid and is billed, and the delivered mail
    goes with the bill."""
    shopper = auth.customer()
    order = placed(client, [(books[0], 1)], headers=shopper)
    sid = ship(client, order, admin, courier="Delhivery", awb="T1").get_json()["order"]["shipments"][0]["_id"]
    start = utcnow() - timedelta(hours=5)
    for hours, status, place in ((1, "picked_up", "Bengaluru"), (2, "in_transit", "Hyderabad Hub"),
                                 (3, "failed_attempt", "Pune"), (4, "out_for_delivery", "Pune")):
        response = event(client, order, sid, admin, status=status, location=place,
                         at=(start + timedelta(hours=hours)).isoformat())
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["order"]["status"] == "shipped"
    response = event(client, order, sid, admin, status="delivered", location="Pune")
    assert response.status_code == 201, response.get_json()
    reply = response.get_json()["order"]
    assert (reply["status"], reply["paymentStatus"]) == ("delivered", "paid")
    assert reply["shipments"][0]["status"] == "delivered"
    assert reply["billNumber"] and last_mail().bill_order_id == order_row(order["_id"]).id
    mine = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]
    assert [(e["status"], e["location"]) for e in mine["shipments"][0]["events"]] == [
        ("picked_up", "Bengaluru"), ("in_transit", "Hyderabad Hub"), ("failed_attempt", "Pune"),
        ("out_for_delivery", "Pune"), ("delivered", "Pune")]
    assert last_mail().subject == f"Order {order['orderNumber']} is now delivered"
    assert len(db.session.scalars(select(AuditEntry).where(AuditEntry.action == "shipment.event")).all()) == 5

    assert_refused(event(client, order, sid, admin, status="rto"), 409, "This parcel was delivered; it takes no more events.")


def test_an_online_order_delivered_stays_paid(client, razorpay, admin, books):
    """A paid online order is delivered; its payment stays paid (nothing to collect)."""
    order = online_order(client, books[0])
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    sid = ship(client, order, admin, courier="DTDC", awb="ON1").get_json()["order"]["shipments"][0]["_id"]
    reply = event(client, order, sid, admin, status="delivered").get_json()["order"]
    assert (reply["status"], reply["paymentStatus"]) == ("delivered", "paid")


def test_one_delivered_parcel_of_two_does_not_complete_the_order(client, admin, books):
    """The order is delivered only when every parcel is, and only once every line has shipped."""
    order = placed(client, [(books[0], 1), (books[1], 1)])
    first = ship(client, order, admin, courier="DTDC", awb="M1", lines=[{"book": str(books[0].id)}])
    sid1 = first.get_json()["order"]["shipments"][0]["_id"]
    assert event(client, order, sid1, admin, status="delivered").get_json()["order"]["status"] == "processing"
    second = ship(client, order, admin, courier="DTDC", awb="M2").get_json()["order"]
    assert second["status"] == "shipped"
    sid2 = second["shipments"][1]["_id"]
    assert event(client, order, sid2, admin, status="in_transit").get_json()["order"]["status"] == "shipped"
    assert event(client, order, sid2, admin, status="delivered").get_json()["order"]["status"] == "delivered"


@pytest.mark.parametrize("body, status, message", [
    ({"status": "lost"}, 422, "Status must be one of: picked_up, in_transit, out_for_delivery, delivered, "
                              "failed_attempt, rto."),
    ({}, 422, "Status is required."),
    ({"status": "in_transit", "at": "2026-13-01T00:00:00Z"}, 422, "Time must be an ISO date and time with its offset."),
    ({"status": "in_transit", "at": "2026-11-01T10:00:00"}, 422, "Time must carry its offset (Z or +05:30)."),
])
def test_bad_events_are_refused(client, admin, books, body, status, message):
    """A bad event is 422 with its message and nothing is recorded."""
    order = placed(client, [(books[0], 1)])
    sid = ship(client, order, admin, courier="DTDC", awb="B1").get_json()["order"]["shipments"][0]["_id"]
    assert_refused(event(client, order, sid, admin, **body), status, message)
    assert db.session.scalars(select(ShipmentEvent)).all() == []


def test_a_future_event_and_an_unknown_shipment_are_refused(client, admin, books):
    """An event an hour ahead is 422; a shipment of another order is 404."""
    order = placed(client, [(books[0], 1)])
    other = placed(client, [(books[1], 1)])
    sid = ship(client, order, admin, courier="DTDC", awb="F1").get_json()["order"]["shipments"][0]["_id"]
    ahead = (utcnow() + timedelta(hours=1)).isoformat()
    assert_refused(event(client, order, sid, admin, status="in_transit", at=ahead), 422, "An event cannot be in the future.")
    assert_refused(event(client, other, sid, admin, status="in_transit"), 404, "Shipment not found.")
    assert_refused(receive(client, order, "abc", admin), 404, "Shipment not found.")


def test_a_cash_order_returned_to_origin(client, admin, books):
    """RTO: the parcel comes back; received, its copies return to stock once and the order is returned
    (cash never collected: payment stays pending); nothing moves a returned order."""
    order = placed(client, [(books[0], 2)])
    assert stock_of(books[0]) == (8, 2)
    sid = ship(client, order, admin, courier="DTDC", awb="R1").get_json()["order"]["shipments"][0]["_id"]
    assert_refused(receive(client, order, sid, admin), 409, "Only a parcel returned to origin (RTO) can be received back.")
    event(client, order, sid, admin, status="failed_attempt")
    reply = event(client, order, sid, admin, status="rto").get_json()["order"]
    assert reply["status"] == "shipped" and reply["shipments"][0]["status"] == "rto"
    assert stock_of(books[0]) == (8, 2)

    response = receive(client, order, sid, admin)
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()["order"]
    assert (reply["status"], reply["paymentStatus"]) == ("returned", "pending")
    assert reply["shipments"][0]["status"] == "received" and reply["shipments"][0]["receivedAt"]
    assert stock_of(books[0]) == (10, 0)
    assert order_row(order["_id"]).stock_released is True
    assert last_mail().subject == f"Order {order['orderNumber']} is now returned"
    assert "Delivering to" not in last_mail().body

    assert_refused(receive(client, order, sid, admin), 409, "This parcel has already been received back.")
    assert_refused(event(client, order, sid, admin, status="in_transit"), 409,
                   "This parcel is back at the shop; it takes no more events.")
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert_refused(response, 409, "A returned order cannot change status: its parcels are back on the shelf.")
    assert stock_of(books[0]) == (10, 0)
    assert db.session.scalars(select(AuditEntry).where(AuditEntry.action == "shipment.received")).one().after == {
        "status": "returned", "shipment": "R1"}


def test_a_paid_order_returned_to_origin_is_refunded(client, razorpay, admin, books):
    """An online order whose parcel came back is returned and its payment refunded (the refund job)."""
    order = online_order(client, books[0])
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    sid = ship(client, order, admin, courier="DTDC", awb="RP1").get_json()["order"]["shipments"][0]["_id"]
    event(client, order, sid, admin, status="rto")
    reply = receive(client, order, sid, admin).get_json()["order"]
    assert reply["status"] == "returned"
    assert order_row(order["_id"]).payment_status == "refunded"
    assert "refunded" in last_mail().body


@pytest.mark.parametrize("rto_first", [True, False], ids=["rto-received-first", "delivered-last"])
def test_one_parcel_delivered_and_one_returned_to_origin(client, admin, books, rto_first):
    """Every parcel at an end state, one delivered and one received back after an RTO: the order is
    delivered for the delivered part (cash on delivery: paid, the bill numbered), whichever came last; the
    returned parcel's copies are back in stock once, and the history and the delivered mail say which
    parcel came back."""
    order = placed(client, [(books[0], 1), (books[1], 2)])
    first = ship(client, order, admin, courier="DTDC", awb="MX1", lines=[{"book": str(books[0].id)}])
    sid1 = first.get_json()["order"]["shipments"][0]["_id"]
    sid2 = ship(client, order, admin, courier="DTDC", awb="MX2").get_json()["order"]["shipments"][1]["_id"]
    assert stock_of(books[1]) == (8, 2)

    def deliver_first():
        return event(client, order, sid1, admin, status="delivered").get_json()["order"]

    def return_second():
        assert event(client, order, sid2, admin, status="rto").status_code == 201
        response = receive(client, order, sid2, admin)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["order"]

    if rto_first:
        assert return_second()["status"] == "shipped"  # the other parcel is still on its way
        reply = deliver_first()
    else:
        assert deliver_first()["status"] == "shipped"  # the other parcel has not come back yet
        reply = return_second()

    assert (reply["status"], reply["paymentStatus"]) == ("delivered", "paid")
    assert reply["billNumber"]
    assert [s["status"] for s in reply["shipments"]] == ["delivered", "received"]
    assert reply["statusHistory"][-1]["note"] == ("Delivered, except the parcel(s) returned to the shop (RTO) and "
                                                  "back in stock: DTDC AWB MX2")
    assert stock_of(books[0]) == (9, 1) and stock_of(books[1]) == (10, 0)
    row = order_row(order["_id"])
    assert row.stock_released is False and [h.status for h in row.history].count("delivered") == 1
    mail = last_mail()
    assert mail.subject == f"Order {order['orderNumber']} is now delivered"
    assert "come back to us" in mail.body and "2 × CAT Quant" in mail.body


def test_returned_cannot_be_set_by_hand(client, admin, books):
    """PUT status returned is 409: an order is returned only through its parcels."""
    order = placed(client, [(books[0], 1)])
    set_order(order["_id"], status="shipped")
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "returned", "note": "x"},
                          headers=admin)
    assert_refused(response, 409, "An order becomes returned when its parcels come back: mark each returned parcel "
                                  "received in the order's shipments.")


def test_couriers_are_kept_by_the_admin(client, admin, books):
    """The seeded list; a new courier with its tracking template; a bad template, a taken name; a courier
    taken off the list cannot be chosen; each change audited."""
    reply = client.get("/api/admin/couriers", headers=admin).get_json()
    assert [c["name"] for c in reply["couriers"]] == ["India Post", "Delhivery", "Blue Dart", "DTDC", "Ekart",
                                                     "Xpressbees", "Other"]
    assert reply["shiprocket"] is False
    response = client.post("/api/admin/couriers", json={"name": "Shadowfax",
                                                        "trackingUrlTemplate": "https://shadowfax.example/t/{awb}"},
                           headers=admin)
    assert response.status_code == 201, response.get_json()
    courier = response.get_json()["courier"]
    assert_refused(client.post("/api/admin/couriers", json={"name": "Shadowfax"}, headers=admin), 409,
                   "A courier named Shadowfax already exists.")
    assert_refused(client.post("/api/admin/couriers", json={"name": "X", "trackingUrlTemplate": "https://x.example/"},
                               headers=admin), 422,
                   "The tracking address must contain {awb} where the AWB number goes.")
    assert_refused(client.post("/api/admin/couriers", json={"name": " "}, headers=admin), 422, "Courier name is required.")

    order = placed(client, [(books[0], 1)])
    shipped = ship(client, order, admin, courier="Shadowfax", awb="SF1").get_json()["order"]
    assert shipped["shipments"][0]["trackingUrl"] == "https://shadowfax.example/t/SF1"
    response = client.put(f"/api/admin/couriers/{courier['_id']}", json={"active": False}, headers=admin)
    assert response.get_json()["courier"] == {**courier, "active": False}
    other = placed(client, [(books[1], 1)])
    assert_refused(ship(client, other, admin, courier="Shadowfax", awb="SF2"), 422,
                   "Unknown courier: choose one from the shop's list.")
    assert_refused(client.put("/api/admin/couriers/9999", json={"active": False}, headers=admin), 404, "Courier not found.")
    actions = [e.action for e in db.session.scalars(select(AuditEntry).where(AuditEntry.entity_type == "courier"))]
    assert actions == ["courier.create", "courier.update"]


def test_shoppers_cannot_ship(client, auth, books):
    """Shipping and events are admin calls: 401 without a token, 403 for a shopper."""
    order = placed(client, [(books[0], 1)])
    assert ship(client, order, {}, courier="DTDC", awb="Z1").status_code == 401
    assert ship(client, order, auth.customer(), courier="DTDC", awb="Z1").status_code == 403
    assert shipment_count() == 0


def test_a_kit_shipped_and_returned_to_origin_gives_each_of_its_books_back(client, admin, books):
    """A kit's line ships like any line (named by its kit in the reply); received back after an RTO, every
    book of the kit returns to stock, times its copies per kit."""
    first, second = books
    made = client.post("/api/admin/kits", headers=admin, json={
        "name": "GATE and CAT pair", "price": 500, "description": "Two books.",
        "books": [{"book": str(first.id), "quantity": 1}, {"book": str(second.id), "quantity": 2}]})
    assert made.status_code == 201, made.get_json()
    kit = made.get_json()["kit"]
    body = {"orderItems": [{"kit": kit["_id"], "quantity": 2}], "shippingAddress": dict(ADDRESS),
            "paymentMethod": "cod", "totalPrice": (2 * 50000 + SHIPPING_PAISE) / 100}
    response = client.post("/api/orders", json=body)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert stock_of(first) == (8, 2) and stock_of(second) == (6, 4)

    shipped = ship(client, order, admin, courier="DTDC", awb="KIT1")
    assert shipped.status_code == 201, shipped.get_json()
    parcel = shipped.get_json()["order"]["shipments"][0]
    assert parcel["lines"] == [{"book": None, "kit": kit["_id"], "title": "GATE and CAT pair", "quantity": 2}]
    event(client, order, parcel["_id"], admin, status="rto")
    received = receive(client, order, parcel["_id"], admin)
    assert received.status_code == 200, received.get_json()
    assert received.get_json()["order"]["status"] == "returned"
    assert stock_of(first) == (10, 0) and stock_of(second) == (10, 0)
