"""Shipping through Shiprocket (product §7.8), against tests/fakes/shiprocket_server.py over real HTTP:
the Ship request answers 202 with the parcel `booking` and a job (inline here, JOBS_URL immediate://) books
it: the adhoc order, AWB, label and pickup; token reuse and renewal; failed tries retried on the same
Shiprocket order, the last one leaving the parcel `booking_failed` with its lines free, and the admin's retry;
and the tracking webhook (token, duplicates, delivered, RTO)."""
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Shipment, ShipmentEvent, utcnow
from tests.app_pool import reserved_port
from bookstore.services.india import IST
from tests.conftest import RAZORPAY_KEYS, _in_context, empty_database
from tests.factories import ADDRESS, placed
from tests.fakes.shiprocket_server import COURIER_NAME, FakeShiprocket
from tests.helpers import assert_refused, order_row, outbox_subjects, stock_of

WEBHOOK = "/api/shipments/tracking-webhook"
TOKEN = "tracking-token-0123"


@pytest.fixture(scope="session")
def shiprocket_port() -> int:
    return reserved_port()


@pytest.fixture
def shiprocket(shiprocket_port):
    """The fake Shiprocket API, new for the test."""
    with FakeShiprocket(email="api@bookstore.example", password="sr-pass", webhook_token=TOKEN,
                        port=shiprocket_port) as fake:
        yield fake


@pytest.fixture
def app(app_pool, shiprocket, razorpay, smtp_sink):
    """The app with Shiprocket pointed at the fake (1 s timeouts), Razorpay's fake and the SMTP sink."""
    yield from _in_context(app_pool.app(
        RAZORPAY_BASE_URL=razorpay.base_url, RAZORPAY_TIMEOUT_SECONDS="2", **RAZORPAY_KEYS,
        SHIPROCKET_EMAIL="api@bookstore.example", SHIPROCKET_PASSWORD="sr-pass", SHIPROCKET_BASE_URL=shiprocket.base_url,
        SHIPROCKET_WEBHOOK_TOKEN=TOKEN, SHIPROCKET_TIMEOUT_SECONDS="1", SHIPROCKET_BOOKING_ATTEMPTS="2", MAIL_SERVER="127.0.0.1",
        MAIL_PORT=str(smtp_sink.port), PUBLIC_URL="https://books.example.in"))


@pytest.fixture
def admin(auth) -> dict:
    return auth.admin("admin@example.in")


@pytest.fixture
def books(factories):
    return factories.book(title="NEET Biology", stock=10), factories.book(title="UPSC Polity", stock=10)


def ship(client, order, headers, **body):
    return client.post(f"/api/admin/orders/{order['_id']}/shipments", json={"aggregator": "shiprocket", **body},
                       headers=headers)


def hook(client, body, token=TOKEN):
    headers = {} if token is None else {"x-api-key": token}
    return client.post(WEBHOOK, json=body, headers=headers)


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=utcnow().tzinfo)


def shipments() -> list[Shipment]:
    db.session.expire_all()
    return db.session.scalars(select(Shipment)).all()


def booked(client, order, headers, **body) -> dict:
    """Ship through Shiprocket: 202 with the parcel; the job (inline in tests) has booked it by the reply."""
    response = ship(client, order, headers, **body)
    assert response.status_code == 202, response.get_json()
    return response.get_json()


def test_shiprocket_books_the_parcel(client, shiprocket, admin, books):
    """Ship through Shiprocket answers 202 and a job books the parcel: one login, then create adhoc order,
    assign AWB, label and pickup with the token; the shipment keeps Shiprocket's courier, AWB, ids, label and
    pickup, with Shiprocket's tracking page; the admin sees them, the shopper only courier, AWB and link."""
    order = placed(client, [(books[0], 2), (books[1], 1)])
    reply = booked(client, order, admin)
    assert reply["shipment"]["status"] == "shipped" and reply["shipment"]["bookingError"] == ""
    reply = client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]
    assert reply["status"] == "shipped"
    (shipment,) = reply["shipments"]
    created = shiprocket.orders[f"{order['orderNumber']}-1"]
    assert shipment["aggregator"] == "shiprocket" and shipment["courier"] == COURIER_NAME
    assert shipment["awb"] == created["awb"] and shipment["awb"]
    assert shipment["trackingUrl"] == f"https://shiprocket.co/tracking/{created['awb']}"
    assert shipment["providerShipmentId"] == str(created["shipment_id"])
    assert shipment["providerOrderId"] == str(created["order_id"])
    assert shipment["labelUrl"] == created["label_url"] and created["pickup"] is True
    assert shipment["pickupToken"] == f"Reference No: {created['shipment_id']}"
    assert shipment["bookingAttempts"] == 1
    assert [h["status"] for h in reply["statusHistory"]] == ["pending", "shipped"]
    assert reply["statusHistory"][-1]["note"] == f"Shipped by {COURIER_NAME}, AWB {created['awb']}"
    assert outbox_subjects()[-1] == f"Order {order['orderNumber']} is now shipped"

    paths = [r.path.removeprefix("/v1/external/") for r in shiprocket.requests]
    assert paths == ["auth/login", "orders/create/adhoc", "courier/assign/awb", "courier/generate/label",
                     "courier/generate/pickup"]
    assert all(r.authorization and r.authorization.startswith("Bearer ") for r in shiprocket.requests[1:])
    body = created["body"]
    assert body["payment_method"] == "COD" and body["billing_pincode"] == ADDRESS["zipCode"]
    assert body["billing_customer_name"] == ADDRESS["firstName"] and body["pickup_location"] == "Primary"
    assert sorted((item["name"], item["units"], item["hsn"]) for item in body["order_items"]) == [
        ("NEET Biology", 2, 4901), ("UPSC Polity", 1, 4901)]
    assert body["weight"] == 1.5 and body["shipping_charges"] == 40
    assert shiprocket.calls("courier/assign/awb")[0].body == {"shipment_id": created["shipment_id"]}
    assert shiprocket.calls("courier/generate/label")[0].body == {"shipment_id": [created["shipment_id"]]}

    mine = client.get(f"/api/orders/lookup?orderNumber={order['orderNumber']}&email={ADDRESS['email']}")
    shown = mine.get_json()["order"]["shipments"][0]
    assert "labelUrl" not in shown and "bookingError" not in shown and shown["awb"] == created["awb"]

    # The job run again (a repeated enqueue) changes nothing and calls Shiprocket no more.
    assert tasks.book_shipment.call_local(int(shipment["_id"])) == "nothing to do"
    assert len(shiprocket.requests) == 5 and len(order_row(order["_id"]).history) == 2


def test_while_booking_the_lines_are_reserved_and_nothing_else_changes(client, shiprocket, admin, books):
    """The Ship request records the parcel as `booking` and answers 202 at once; when the job's first try
    fails, the parcel stays `booking` with the reason, its lines reserved (shipping them again is 409, the
    order cannot be cancelled), the order's status, history and mails unchanged, and the shopper sees no
    parcel. The next try names the same Shiprocket order and ships it, with the shipped mail then."""
    order = placed(client, [(books[0], 1)])
    mails_before = outbox_subjects()
    shiprocket.fail_next("courier/assign/awb", 422, "No courier serviceable")
    reply = booked(client, order, admin)

    parcel = reply["shipment"]
    assert (parcel["status"], parcel["awb"], parcel["bookingAttempts"]) == ("booking", None, 1)
    assert parcel["bookingError"] == "Shiprocket refused to assign an AWB: No courier serviceable. Nothing was shipped."
    assert reply["order"]["status"] == "pending" and len(reply["order"]["statusHistory"]) == 1
    assert outbox_subjects() == mails_before
    assert_refused(ship(client, order, admin), 409, "Every line of this order has already been shipped.")
    assert_refused(client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"},
                              headers=admin), 409, "Part of this order has already shipped, so it cannot be cancelled.")
    mine = client.get(f"/api/orders/lookup?orderNumber={order['orderNumber']}&email={ADDRESS['email']}")
    assert mine.get_json()["order"]["shipments"] == []
    add = client.post(f"/api/admin/orders/{order['_id']}/shipments/{parcel['_id']}/events",
                      json={"status": "picked_up"}, headers=admin)
    assert_refused(add, 409, "This parcel is not with a courier yet: Shiprocket has not booked it.")
    # The refused requests ran in this test's session and locked the order row (PostgreSQL): end that
    # transaction, as the end of a real request does, before the job locks the row in its own session.
    db.session.rollback()

    assert tasks.book_shipment.call_local(int(parcel["_id"])) == "booked"
    assert list(shiprocket.orders) == [f"{order['orderNumber']}-1"]
    row = order_row(order["_id"])
    assert row.status == "shipped" and row.shipments[0].status == "shipped" and row.shipments[0].awb
    assert row.shipments[0].booking_attempts == 2 and row.shipments[0].booking_error == ""
    assert outbox_subjects()[-1] == f"Order {order['orderNumber']} is now shipped"


def test_the_token_is_reused_and_renewed(client, shiprocket, admin, books):
    """A second shipment uses the same token (no new login); a token Shiprocket no longer accepts is
    replaced by logging in again once, and the call goes through."""
    first = placed(client, [(books[0], 1)])
    second = placed(client, [(books[1], 1)])
    third = placed(client, [(books[1], 1)])
    assert booked(client, first, admin)["shipment"]["status"] == "shipped"
    assert booked(client, second, admin)["shipment"]["status"] == "shipped"
    assert len(shiprocket.calls("auth/login")) == 1
    shiprocket.expire_tokens()
    assert booked(client, third, admin)["shipment"]["status"] == "shipped"
    assert len(shiprocket.calls("auth/login")) == 2


def test_a_prepaid_partial_shipment(client, razorpay, shiprocket, admin, books):
    """A paid online order ships as Prepaid; a partial parcel carries only its lines, and the next
    parcel is a new Shiprocket order (-2) without the order's shipping again."""
    from tests.api.test_payments import online_order, pay, verify
    order = online_order(client, books[0], quantity=2)
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    booked(client, order, admin, lines=[{"book": str(books[0].id), "quantity": 1}])
    assert order_row(order["_id"]).status == "processing"
    assert outbox_subjects()[-1] == f"Part of your order {order['orderNumber']} has shipped"
    booked(client, order, admin)
    assert order_row(order["_id"]).status == "shipped"
    one, two = shiprocket.orders[f"{order['orderNumber']}-1"], shiprocket.orders[f"{order['orderNumber']}-2"]
    assert one["body"]["payment_method"] == two["body"]["payment_method"] == "Prepaid"
    assert one["body"]["shipping_charges"] == 40 and two["body"]["shipping_charges"] == 0
    assert [item["units"] for item in two["body"]["order_items"]] == [1]


@pytest.mark.parametrize("path, message", [
    ("orders/create/adhoc", "Shiprocket refused to create the order: Oops! Invalid Data.. Nothing was shipped."),
    ("courier/assign/awb", "Shiprocket refused to assign an AWB: No courier serviceable. Nothing was shipped."),
    ("courier/generate/label", "Shiprocket refused to generate the label: Label service down. Nothing was shipped."),
    ("courier/generate/pickup", "Shiprocket refused to schedule the pickup: Pickup not possible. Nothing was shipped."),
])
def test_a_refusal_is_tried_again_and_books_the_same_order(client, shiprocket, admin, books, path, message):
    """Any step Shiprocket refuses leaves the parcel `booking` with its reason and the order unchanged; the
    retry (with its back-off) names the same Shiprocket order (-1), so nothing is booked twice."""
    reasons = {"orders/create/adhoc": "Oops! Invalid Data.", "courier/assign/awb": "No courier serviceable",
               "courier/generate/label": "Label service down", "courier/generate/pickup": "Pickup not possible"}
    order = placed(client, [(books[0], 1)])
    shiprocket.fail_next(path, 422, reasons[path])
    parcel = booked(client, order, admin)["shipment"]
    assert (parcel["status"], parcel["bookingError"]) == ("booking", message)
    assert order_row(order["_id"]).status == "pending"
    assert tasks.book_shipment.call_local(int(parcel["_id"])) == "booked"
    assert list(shiprocket.orders) == [f"{order['orderNumber']}-1"]
    assert order_row(order["_id"]).status == "shipped"


def test_the_last_failure_marks_the_parcel_booking_failed(client, shiprocket, admin, books):
    """Unreachable, then slower than the timeout: after SHIPROCKET_BOOKING_ATTEMPTS tries (2 here) the parcel
    is `booking_failed` with the reason and its lines are free again: the order is unchanged, the admin sees
    the reason, may ship those lines by hand, and a retry of the failed parcel is then 409."""
    order = placed(client, [(books[0], 1)])
    shiprocket.stop()
    parcel = booked(client, order, admin)["shipment"]
    assert parcel["bookingError"] == ("Shiprocket cannot be reached right now. Nothing was shipped; please try "
                                      "again in a moment or ship manually.")
    shiprocket.start()
    shiprocket.delay_next(2)
    assert tasks.book_shipment.call_local(int(parcel["_id"])) == "booking_failed"
    db.session.expire_all()  # the job ran in this test's session, which keeps what it read (as a request's would not)

    shown = client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]
    assert shown["status"] == "pending" and len(shown["statusHistory"]) == 1
    assert (shown["shipments"][0]["status"], shown["shipments"][0]["bookingError"]) == (
        "booking_failed", "Shiprocket did not answer in time. Nothing was shipped; please try again.")
    assert tasks.book_shipment.call_local(int(parcel["_id"])) == "nothing to do"

    by_hand = client.post(f"/api/admin/orders/{order['_id']}/shipments",
                          json={"courier": "Delhivery", "awb": "DL123456"}, headers=admin)
    assert by_hand.status_code == 201 and by_hand.get_json()["order"]["status"] == "shipped"
    assert_refused(client.post(f"/api/admin/orders/{order['_id']}/shipments/{parcel['_id']}/retry", headers=admin),
                   409, "“NEET Biology” went in another parcel meanwhile; ship what is left instead.")


def test_the_admin_retries_a_failed_booking(client, shiprocket, admin, books):
    """Wrong credentials fail every try: `booking_failed` with Shiprocket's reason. Once fixed, the admin's
    retry (202) books the same Shiprocket order and ships the order; retrying a parcel that did not fail is 409."""
    order = placed(client, [(books[0], 1)])
    real = shiprocket.password
    shiprocket.password = "changed"
    parcel = booked(client, order, admin)["shipment"]
    assert parcel["bookingError"] == ("Shiprocket refused to sign the shop in: Invalid email and password "
                                      "combination. Nothing was shipped.")
    assert tasks.book_shipment.call_local(int(parcel["_id"])) == "booking_failed"
    shiprocket.password = real

    retry = client.post(f"/api/admin/orders/{order['_id']}/shipments/{parcel['_id']}/retry", headers=admin)

    assert retry.status_code == 202, retry.get_json()
    assert retry.get_json()["shipment"]["status"] == "shipped"
    assert list(shiprocket.orders) == [f"{order['orderNumber']}-1"]
    assert order_row(order["_id"]).status == "shipped"
    assert_refused(client.post(f"/api/admin/orders/{order['_id']}/shipments/{parcel['_id']}/retry", headers=admin),
                   409, "Only a parcel whose booking failed can be booked again.")


def test_the_sweep_finds_a_lost_booking(client, shiprocket, admin, books):
    """A failed try asks for another after its back-off (RetryTask, 30 s after the first); a parcel left
    `booking` past its next try (a lost job) is enqueued again by the sweep and booked."""
    order = placed(client, [(books[0], 1)])
    shiprocket.fail_next("orders/create/adhoc", 500, "Server busy")
    parcel = booked(client, order, admin)["shipment"]
    row = order_row(order["_id"]).shipments[0]
    assert 25 <= (_aware(row.booking_next_at) - utcnow()).total_seconds() <= 30
    assert tasks.sweep_bookings.call_local() == 0  # its retry is not due yet
    db.session.execute(update(Shipment).values(booking_next_at=utcnow() - timedelta(minutes=5)))
    db.session.commit()
    assert tasks.sweep_bookings.call_local() == 1
    assert order_row(order["_id"]).shipments[0].status == "shipped" and parcel["status"] == "booking"


def test_shiprocket_not_set_up_is_422(make_app, books):
    """Without SHIPROCKET_EMAIL and PASSWORD the couriers list says so and a Shiprocket shipment is 422."""
    app = make_app()
    with app.app_context():
        from tests.conftest import Auth
        from tests.factories import Factories
        client = app.test_client()
        headers = Auth(client, Factories()).admin("boss@example.in")
        assert client.get("/api/admin/couriers", headers=headers).get_json()["shiprocket"] is False
        order = placed(client, [(books[0], 1)])
        assert_refused(ship(client, order, headers), 422, "Shiprocket is not set up: set SHIPROCKET_EMAIL and "
                                                          "SHIPROCKET_PASSWORD, or ship manually.", field="aggregator")


# ---- the tracking webhook ------------------------------------------------------------------------------

@pytest.fixture
def shipped(client, shiprocket, admin, books):
    """A cash-on-delivery order of two copies shipped through Shiprocket; (order, awb)."""
    order = placed(client, [(books[0], 2)])
    return order, booked(client, order, admin)["shipment"]["awb"]


def test_the_webhook_checks_its_token(client, shiprocket, shipped):
    """No x-api-key: 401; a wrong one: 403; nothing recorded either way."""
    order, awb = shipped
    body = shiprocket.webhook_body(awb, "IN TRANSIT", 18)
    assert_refused(hook(client, body, token=None), 401, "The tracking webhook needs its token in the x-api-key header.")
    assert_refused(hook(client, body, token="guess"), 403, "The tracking webhook's token is wrong.")
    assert_refused(client.post(WEBHOOK, data="not json", headers={"x-api-key": "guess",
                                                                  "Content-Type": "application/json"}), 403)
    assert db.session.scalars(select(ShipmentEvent)).all() == []


def test_the_webhook_refuses_without_a_configured_token(make_app):
    """A shop without SHIPROCKET_WEBHOOK_TOKEN answers 503 to every delivery."""
    app = make_app()
    with app.app_context():
        assert_refused(app.test_client().post(WEBHOOK, json={"awb": "1"}, headers={"x-api-key": "x"}), 503,
                       "The tracking webhook is not configured.")


def test_the_webhook_records_events_once_and_delivered_completes(client, shiprocket, shipped):
    """Scans become events with Shiprocket's time (IST) and place; a repeated delivery is recorded once;
    DELIVERED completes the order and the cash order becomes paid; later scans are ignored."""
    order, awb = shipped
    body = shiprocket.webhook_body(awb, "PICKED UP", 42, timestamp="25 11 2026 10:15:00", location="Bengaluru")
    assert hook(client, body).get_json() == {"success": True, "message": "recorded: picked_up"}
    assert hook(client, body).get_json() == {"success": True, "message": "duplicate: already recorded"}
    transit = shiprocket.webhook_body(awb, "IN TRANSIT", 18, timestamp="25 11 2026 18:00:00", location="Hyderabad")
    assert hook(client, transit).get_json()["message"] == "recorded: in_transit"
    ofd = shiprocket.webhook_body(awb, "OUT FOR DELIVERY", 17, timestamp="27 11 2026 08:00:00", location="Pune")
    assert hook(client, ofd).get_json()["message"] == "recorded: out_for_delivery"
    assert order_row(order["_id"]).status == "shipped"
    delivered = shiprocket.webhook_body(awb, "DELIVERED", 7, timestamp="27 11 2026 13:05:00", location="Pune")
    assert hook(client, delivered).get_json()["message"] == "recorded: delivered"
    assert hook(client, delivered).get_json()["message"] == "ignored: parcel already delivered or received"

    row = order_row(order["_id"])
    assert (row.status, row.payment_status) == ("delivered", "paid") and row.history[-1].by == "system"
    events = row.shipments[0].events
    assert [(e.status, e.location, e.source) for e in events] == [
        ("picked_up", "Bengaluru", "webhook"), ("in_transit", "Hyderabad", "webhook"),
        ("out_for_delivery", "Pune", "webhook"), ("delivered", "Pune", "webhook")]
    shown = client.get(f"/api/orders/lookup?orderNumber={order['orderNumber']}&email={ADDRESS['email']}")
    first = shown.get_json()["order"]["shipments"][0]["events"][0]
    assert first["at"].startswith("2026-11-25T04:45:00")  # 10:15 IST


def test_the_webhook_ignores_what_it_does_not_follow(client, shiprocket, shipped):
    """An unknown AWB, a status the shop does not follow and a body without AWB are answered 200 and
    ignored (Shiprocket would retry a refusal); a body that is not a JSON object is 400."""
    _order, awb = shipped
    assert hook(client, shiprocket.webhook_body("999", "DELIVERED", 7)).get_json()["message"] == "ignored: unknown AWB"
    assert hook(client, shiprocket.webhook_body(awb, "MANIFEST GENERATED", 19)).get_json()["message"] == \
        "ignored: status not followed"
    assert hook(client, {"current_status": "DELIVERED"}).get_json()["message"] == "ignored: no AWB"
    assert_refused(hook(client, ["not", "an", "object"]), 400, "Malformed webhook body: a JSON object is expected.")
    assert db.session.scalars(select(ShipmentEvent)).all() == []


def test_rto_by_webhook_then_received(client, shiprocket, admin, shipped, books):
    """RTO INITIATED and RTO DELIVERED mark the parcel returning; the admin receives it: stock back once,
    the cash order returned and never paid."""
    order, awb = shipped
    assert stock_of(books[0]) == (8, 2)
    assert hook(client, shiprocket.webhook_body(awb, "UNDELIVERED", 21, timestamp="26 11 2026 12:00:00")) \
        .get_json()["message"] == "recorded: failed_attempt"
    assert hook(client, shiprocket.webhook_body(awb, "RTO INITIATED", 9, timestamp="27 11 2026 12:00:00")) \
        .get_json()["message"] == "recorded: rto"
    assert hook(client, shiprocket.webhook_body(awb, "RTO DELIVERED", 10, timestamp="27 11 2026 14:00:00")) \
        .get_json()["message"] == "recorded: rto"
    row = order_row(order["_id"])
    assert row.status == "shipped" and row.shipments[0].status == "rto"
    sid = row.shipments[0].id
    response = client.post(f"/api/admin/orders/{order['_id']}/shipments/{sid}/received", headers=admin)
    assert response.status_code == 200, response.get_json()
    assert (response.get_json()["order"]["status"], response.get_json()["order"]["paymentStatus"]) == (
        "returned", "pending")
    assert stock_of(books[0]) == (10, 0)


def ist(hours_from_now: float) -> str:
    """A webhook time as Shiprocket writes it (India's clock), hours from now."""
    return (utcnow() + timedelta(hours=hours_from_now)).astimezone(IST).strftime("%d %m %Y %H:%M:%S")


def parcel_state(order) -> tuple:
    row = order_row(order["_id"])
    return row.status, row.payment_status, row.shipments[0].status, [e.status for e in row.shipments[0].events]


def test_a_scan_that_goes_back_in_the_parcels_life_is_ignored(client, shiprocket, shipped):
    """Picked up after out for delivery moves nothing: the answer
    is 200 (Shiprocket would retry a refusal for ever) saying it was ignored, and no event is recorded. Scans
    within delivery may loop (out for delivery, failed attempt, back at the hub, out again)."""
    order, awb = shipped
    for status, status_id, hours in (("PICKED UP", 42, -6), ("OUT FOR DELIVERY", 17, -5)):
        assert hook(client, shiprocket.webhook_body(awb, status, status_id, timestamp=ist(hours))).status_code == 200
    late = hook(client, shiprocket.webhook_body(awb, "PICKED UP", 42, timestamp=ist(-4)))
    assert late.status_code == 200
    assert late.get_json() == {"success": True, "message": "ignored: picked_up cannot follow out_for_delivery"}
    assert parcel_state(order) == ("shipped", "pending", "out_for_delivery", ["picked_up", "out_for_delivery"])
    for status, status_id, hours in (("UNDELIVERED", 21, -3), ("REACHED AT DESTINATION HUB", 38, -2),
                                     ("OUT FOR DELIVERY", 17, -1)):
        assert hook(client, shiprocket.webhook_body(awb, status, status_id, timestamp=ist(hours))) \
            .get_json()["message"].startswith("recorded: ")
    assert parcel_state(order)[2] == "out_for_delivery"


def test_delivered_after_rto_is_ignored(client, shiprocket, shipped, books):
    """A parcel returning to the shop takes RTO scans only: DELIVERED after RTO INITIATED neither completes
    the order nor marks the cash order paid."""
    order, awb = shipped
    assert hook(client, shiprocket.webhook_body(awb, "RTO INITIATED", 9, timestamp=ist(-3))) \
        .get_json()["message"] == "recorded: rto"
    for status, status_id in (("DELIVERED", 7), ("OUT FOR DELIVERY", 17), ("PICKED UP", 42)):
        reply = hook(client, shiprocket.webhook_body(awb, status, status_id, timestamp=ist(-2)))
        assert reply.status_code == 200 and reply.get_json()["message"].startswith("ignored: "), reply.get_json()
    assert hook(client, shiprocket.webhook_body(awb, "RTO DELIVERED", 10, timestamp=ist(-1))) \
        .get_json()["message"] == "recorded: rto"
    assert parcel_state(order) == ("shipped", "pending", "rto", ["rto", "rto"])
    assert not any("delivered" in subject.lower() for subject in outbox_subjects())
    assert stock_of(books[0]) == (8, 2)


def test_a_scan_dated_in_the_future_is_refused(client, shiprocket, shipped):
    """A scan more than 5 minutes ahead of the shop's clock is 400 and recorded nowhere; a minute ahead (a
    courier's clock running fast) is accepted."""
    order, awb = shipped
    ahead = hook(client, shiprocket.webhook_body(awb, "DELIVERED", 7, timestamp=ist(1)))
    assert_refused(ahead, 400, "The update's time is in the future.")
    assert parcel_state(order) == ("shipped", "pending", "shipped", [])
    assert hook(client, shiprocket.webhook_body(awb, "PICKED UP", 42, timestamp=ist(1 / 60))) \
        .get_json()["message"] == "recorded: picked_up"


def test_an_awb_of_another_courier_is_refused(client, shiprocket, admin, shipped, books):
    """An update naming another courier than the parcel's is 409 and moves nothing; when two couriers' parcels
    share an AWB, each update moves its own courier's parcel only, and one naming no courier is refused."""
    order, awb = shipped
    other = {**shiprocket.webhook_body(awb, "DELIVERED", 7, timestamp=ist(-1)), "courier_name": "Blue Dart"}
    assert_refused(hook(client, other), 409, f"AWB {awb} is Delhivery Surface's, not Blue Dart's.")
    assert parcel_state(order) == ("shipped", "pending", "shipped", [])

    second = placed(client, [(books[1], 1)], shippingAddress={**ADDRESS, "email": "second@example.in"})
    response = client.post(f"/api/admin/orders/{second['_id']}/shipments",
                           json={"aggregator": "manual", "courier": "Blue Dart", "awb": awb}, headers=admin)
    assert response.status_code == 201, response.get_json()
    assert hook(client, other).get_json()["message"] == "recorded: delivered"
    assert order_row(second["_id"]).status == "delivered"
    assert parcel_state(order) == ("shipped", "pending", "shipped", [])
    own = {**shiprocket.webhook_body(awb, "PICKED UP", 42, timestamp=ist(-1)), "courier_name": "delhivery surface"}
    assert hook(client, own).get_json()["message"] == "recorded: picked_up"
    assert parcel_state(order)[2:] == ("picked_up", ["picked_up"])
    nameless = {key: value for key, value in own.items() if key != "courier_name"}
    assert_refused(hook(client, nameless), 409, f"AWB {awb} is used by more than one courier: the update must name its courier.")


def test_wrong_tokens_are_limited_per_ip(make_app, shiprocket):
    """Guessing the token: after 3 wrong ones (setting) an IP gets 429 even with the right token; other IPs
    and the right token's own deliveries are not counted."""
    app = make_app(SHIPROCKET_WEBHOOK_TOKEN=TOKEN, WEBHOOK_TOKEN_FAILURES_PER_IP="3 per 10 minutes",
                   RATELIMIT_KEY_PREFIX=uuid.uuid4().hex)
    with app.app_context():
        empty_database()
        client = app.test_client()

        def send(token, ip):
            return client.post(WEBHOOK, json={"awb": "none"}, headers={} if token is None else {"x-api-key": token},
                               environ_base={"REMOTE_ADDR": ip})
        for _ in range(5):
            assert send(TOKEN, "10.9.0.1").status_code == 200
        assert send(None, "10.9.0.1").status_code == 401
        for _ in range(2):
            assert_refused(send("guess", "10.9.0.1"), 403, "The tracking webhook's token is wrong.")
        limited = send(TOKEN, "10.9.0.1")
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
        assert limited.get_json()["success"] is False
        assert send(TOKEN, "10.9.0.2").get_json() == {"success": True, "message": "ignored: unknown AWB"}
        db.session.remove()
