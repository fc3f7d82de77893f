"""Money after the sale (product §6.6, §7.8, §7.10): one refundable amount per order (paid less every refund made or
pending) used by every refund; a parcel returned to origin (RTO) of an order otherwise delivered refunded for
its share (online) or not collected (cash on delivery), and left out of the bill, revenue and mails; an
administrator's part refund; a delivered order never cancelled; a refund Razorpay refuses for good stops and
asks for a person; the cash-on-delivery shipping deduction taken once, from what is actually refunded.

Runs on the shop app (fake Razorpay and the SMTP sink), so payments, refunds and e-mails are real.
"""
import pytest
import razorpay as razorpay_sdk
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import AuditEntry, OrderRefund, OutboxMail, ReturnRequest
from bookstore.services import bills, refunds
from tests.api.test_payments import pay, refund_calls, verify
from tests.api.test_returns import UPI, ask, deliver, line, return_row, step
from tests.conftest import RAZORPAY_KEYS
from tests.factories import ADDRESS, placed
from tests.helpers import assert_refused, order_row, stock_of


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def books(factories):
    return (factories.book(title="GATE Mechanical", price_paise=50000, stock=10),
            factories.book(title="CAT Quant", price_paise=30000, stock=10))


def admin_order(client, order, admin) -> dict:
    return client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]


def refund_rows() -> list[OrderRefund]:
    db.session.expire_all()
    return db.session.scalars(select(OrderRefund).order_by(OrderRefund.id)).all()


def last_mail_to(email: str) -> OutboxMail:
    db.session.expire_all()
    return db.session.scalars(select(OutboxMail).where(OutboxMail.to_address == email)
                              .order_by(OutboxMail.id.desc())).first()


def dashboard(client, admin) -> dict:
    return client.get("/api/admin/dashboard/stats", headers=admin).get_json()


def paid_online(client, razorpay, lines, headers=None, **changes) -> dict:
    order = placed(client, lines, "online", headers, **changes)
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    return order


def part_refund(client, order, admin, **body):
    return client.post(f"/api/admin/orders/{order['_id']}/refunds", json=body, headers=admin)


# ---- a parcel that came back to origin (RTO) -------------------------------------------------------------

def two_parcels_one_back(client, admin, order, books, rto_first: bool) -> dict:
    """Book 1 in parcel 1 (delivered), book 2 in parcel 2 (RTO, received back), in either order."""
    base = f"/api/admin/orders/{order['_id']}/shipments"
    first = client.post(base, json={"courier": "DTDC", "awb": "RTO1", "lines": [{"book": str(books[0].id)}]},
                        headers=admin).get_json()["order"]["shipments"][0]["_id"]
    second = client.post(base, json={"courier": "DTDC", "awb": "RTO2"}, headers=admin).get_json()["order"]["shipments"][1]["_id"]

    def deliver_first():
        response = client.post(f"{base}/{first}/events", json={"status": "delivered"}, headers=admin)
        assert response.status_code == 201, response.get_json()

    def second_comes_back():
        assert client.post(f"{base}/{second}/events", json={"status": "rto"}, headers=admin).status_code == 201
        response = client.post(f"{base}/{second}/received", headers=admin)
        assert response.status_code == 200, response.get_json()

    for move in ((second_comes_back, deliver_first) if rto_first else (deliver_first, second_comes_back)):
        move()
    return admin_order(client, order, admin)


@pytest.mark.parametrize("rto_first", [True, False], ids=["rto-received-first", "delivered-first"])
def test_an_rto_parcel_of_a_paid_order_is_refunded_for_its_share(client, auth, admin, books, razorpay, rto_first):
    """Paid online, two books in two parcels; parcel 2 comes back and is received, parcel 1 is delivered: the
    order is delivered, the refund job gives back book 2's share through Razorpay (its own idempotency key),
    the bill, the delivered mail and the revenue leave it out, and book 2 still cannot be returned."""
    shopper = auth.customer()
    order = paid_online(client, razorpay, [(books[0], 1), (books[1], 1)], shopper)
    shown = two_parcels_one_back(client, admin, order, books, rto_first)

    assert (shown["status"], shown["paymentStatus"]) == ("delivered", "paid")
    [row] = refund_rows()
    assert (row.kind, row.status, row.amount_paise, row.shipment_id) == ("rto", "refunded", 30000,
                                                                          int(shown["shipments"][1]["_id"]))
    payment = razorpay.payment(order_row(order["_id"]).razorpay_payment_id)
    assert payment["amount_refunded"] == 30000 and payment["refund_status"] == "partial"
    assert razorpay.idempotency_keys == [f"rto-{row.public_id}"]
    assert razorpay.refund(row.razorpay_refund_id)["notes"] == {"order_id": order["_id"], "refund_id": row.public_id}
    assert [(r["kind"], r["amount"], r["status"]) for r in shown["refunds"]] == [("rto", 300, "refunded")]
    assert shown["refundable"] == 540  # ₹840 paid less ₹300 back

    bill = order_row(order["_id"])
    assert [(line.description, line.quantity, line.value_paise) for line in bills.lines_of(bill)] == [
        ("GATE Mechanical — " + books[0].author, 1, 50000), ("Shipping (part of the composite supply of books)",
                                                              None, 4000)]
    assert bills.billed_total(bill) == 54000
    assert client.get(f"/api/orders/{order['_id']}/bill", headers=shopper).status_code == 200

    delivered = [m for m in db.session.scalars(select(OutboxMail).where(OutboxMail.to_address == ADDRESS["email"]))
                 if m.subject.endswith("is now delivered")]
    assert len(delivered) == 1
    assert "We are refunding ₹300.00 for them to your original payment." in delivered[0].body
    assert "Parcel that came back to us (not delivered) — −₹300.00" in delivered[0].body
    assert "You paid — ₹540.00" in delivered[0].body
    assert dashboard(client, admin)["totalRevenue"] == 540

    refused = ask(client, order, [line(books[1])], shopper)
    assert_refused(refused, 422, field="lines")
    assert "was not delivered: its parcel came back to us" in str(refused.get_json())


def test_an_rto_parcel_of_a_cash_on_delivery_order_is_not_collected(client, auth, admin, books, razorpay):
    """Cash on delivery: the courier collects for the delivered parcel only. The order is delivered and paid
    for ₹540 (not ₹840), Razorpay is never called, and the bill, the mail and the revenue say ₹540."""
    shopper = auth.customer()
    order = placed(client, [(books[0], 1), (books[1], 1)], headers=shopper)
    shown = two_parcels_one_back(client, admin, order, books, rto_first=False)
    assert (shown["status"], shown["paymentStatus"]) == ("delivered", "paid")
    [row] = refund_rows()
    assert (row.kind, row.status, row.amount_paise) == ("rto", "not_collected", 30000)
    assert refund_calls(razorpay) == []
    assert shown["refundable"] == 540
    assert bills.billed_total(order_row(order["_id"])) == 54000
    body = last_mail_to(ADDRESS["email"]).body
    assert "They are not charged: ₹300.00 less was collected." in body and "You paid — ₹540.00" in body
    stats = dashboard(client, admin)
    assert stats["totalRevenue"] == 540 and stats["revenueByDay"][-1]["revenue"] == 540


def test_every_parcel_back_refunds_what_an_earlier_rto_left(client, auth, admin, books, razorpay):
    """One parcel comes back (its share refunded), then the other: the order is returned and its own refund
    gives back only the rest, so the payment is refunded exactly once in full."""
    order = paid_online(client, razorpay, [(books[0], 1), (books[1], 1)])
    base = f"/api/admin/orders/{order['_id']}/shipments"
    first = client.post(base, json={"courier": "DTDC", "awb": "B1", "lines": [{"book": str(books[0].id)}]},
                        headers=admin).get_json()["order"]["shipments"][0]["_id"]
    second = client.post(base, json={"courier": "DTDC", "awb": "B2"}, headers=admin).get_json()["order"]["shipments"][1]["_id"]
    for sid in (second, first):
        assert client.post(f"{base}/{sid}/events", json={"status": "rto"}, headers=admin).status_code == 201
        assert client.post(f"{base}/{sid}/received", headers=admin).status_code == 200
    row = order_row(order["_id"])
    assert (row.status, row.payment_status) == ("returned", "refunded")
    assert [call.body["amount"] for call in refund_calls(razorpay)] == [30000, 54000]
    assert razorpay.payment(row.razorpay_payment_id)["amount_refunded"] == 84000


# ---- part refunds ----------------------------------------------------------------------------------------

def test_an_admin_refunds_part_of_a_paid_order_never_more_than_is_left(client, auth, admin, books, razorpay):
    """₹150.50 back with a reason: refunded through Razorpay by the job, audited, mailed, shown on the order;
    more than is left is 409 and a zero or reasonless refund 422, each changing nothing."""
    shopper = auth.customer()
    order = deliver(client, paid_online(client, razorpay, [(books[0], 2)], shopper), admin)
    response = part_refund(client, order, admin, amount=150.5, reason="Arrived a week late")
    assert response.status_code == 201, response.get_json()
    shown = response.get_json()["order"]
    assert [(r["kind"], r["amount"], r["reason"], r["status"]) for r in shown["refunds"]] == [
        ("part", 150.5, "Arrived a week late", "refunded")]
    assert shown["refundable"] == 889.5 and shown["paymentStatus"] == "paid"
    payment = razorpay.payment(order_row(order["_id"]).razorpay_payment_id)
    assert payment["amount_refunded"] == 15050
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "order.part_refund")).one()
    assert entry.entity_id == order["_id"] and entry.after["reason"] == "Arrived a week late"
    mail = last_mail_to(ADDRESS["email"])
    assert mail.subject == f"Order {order['orderNumber']}: a refund of ₹150.50" and "Arrived a week late" in mail.body
    mine = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]
    assert [(r["kind"], r["amount"]) for r in mine["refunds"]] == [("part", 150.5)] and "refundable" not in mine

    assert_refused(part_refund(client, order, admin, amount=890, reason="Too much"), 409,
                   "At most ₹889.50 of this order can still be refunded.")
    assert_refused(part_refund(client, order, admin, amount=0, reason="Nothing"), 422, field="amount")
    assert_refused(part_refund(client, order, admin, amount=10, reason="  "), 422, field="reason")
    assert_refused(part_refund(client, order, admin, amount=10), 422, field="reason")
    assert len(refund_rows()) == 1 and len(refund_calls(razorpay)) == 1
    assert dashboard(client, admin)["totalRevenue"] == 889.5

    # What is left can be refunded; then nothing more.
    assert part_refund(client, order, admin, amount=889.5, reason="Goodwill").status_code == 201
    assert_refused(part_refund(client, order, admin, amount=1, reason="More"), 409,
                   "Nothing of this order is left to refund.")
    assert razorpay.payment(order_row(order["_id"]).razorpay_payment_id)["status"] == "refunded"


def test_part_refunds_of_unpaid_and_cash_orders(client, auth, admin, books):
    """An unpaid order has nothing to refund (409); a cash-on-delivery order's part refund is a payout whose
    reference is required (422 without), recorded as refunded at once; an unknown order is 404."""
    unpaid = placed(client, [(books[0], 1)])
    assert_refused(part_refund(client, unpaid, admin, amount=10, reason="Sorry"), 409,
                   "Only a paid order can be refunded in part.")
    order = deliver(client, placed(client, [(books[1], 1)], headers=auth.customer()), admin)
    assert_refused(part_refund(client, order, admin, amount=10, reason="Sorry"), 422, field="payoutReference")
    assert refund_rows() == []
    response = part_refund(client, order, admin, amount=10, reason="Sorry", payoutReference="UTR42")
    assert response.status_code == 201, response.get_json()
    [row] = refund_rows()
    assert (row.status, row.payout_reference, row.amount_paise) == ("refunded", "UTR42", 1000)
    assert response.get_json()["order"]["refundable"] == 330
    assert_refused(client.post("/api/admin/orders/nope/refunds", json={"amount": 1, "reason": "x"}, headers=admin), 404)


def test_a_return_refund_never_asks_for_more_than_is_left(client, auth, admin, books, razorpay):
    """After a part refund of everything but ₹100, a return's ₹500 refund asks Razorpay for ₹100 only."""
    shopper = auth.customer()
    order = deliver(client, paid_online(client, razorpay, [(books[0], 1)], shopper), admin)
    assert part_refund(client, order, admin, amount=440, reason="Goodwill").status_code == 201
    made = ask(client, order, [line(books[0])], shopper).get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="pickup")
    step(client, made["_id"], admin, status="received")
    assert step(client, made["_id"], admin, status="refunded").status_code == 200
    row = return_row(made["_id"])
    assert (row.status, row.refund_paise) == ("refunded", 10000)
    assert [call.body["amount"] for call in refund_calls(razorpay)] == [44000, 10000]


# ---- cancelling, and refunds Razorpay refuses --------------------------------------------------------------

@pytest.mark.parametrize("with_return", [True, False], ids=["returned-book", "delivered-only"])
def test_an_order_once_delivered_is_never_cancelled(client, auth, admin, books, with_return):
    """Delivered by hand, (a book returned and back on the shelf), moved back to processing: cancelling, by the
    shop or by the shopper within the hour, is 409 and changes nothing: no second stock release, no refund."""
    shopper = auth.customer()
    order = placed(client, [(books[0], 2)], headers=shopper)
    url = f"/api/admin/orders/{order['_id']}/status"
    for status in ("processing", "shipped", "delivered"):
        assert client.put(url, json={"status": status}, headers=admin).status_code == 200
    if with_return:
        made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
        step(client, made["_id"], admin, status="approved", method="pickup")
        step(client, made["_id"], admin, status="received", lines=[{"book": str(books[0].id), "resaleable": True}])
    stock = stock_of(books[0])
    assert client.put(url, json={"status": "processing", "note": "Mistake"}, headers=admin).status_code == 200
    assert_refused(client.put(url, json={"status": "cancelled", "note": "x"}, headers=admin), 409,
                   "This order was delivered, so it cannot be cancelled: use a return or a part refund.")
    assert_refused(client.post(f"/api/orders/{order['_id']}/cancel", headers=shopper), 409,
                   "This order was delivered, so it cannot be cancelled: use a return or a part refund.")
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.stock_released) == ("processing", "paid", False)
    assert stock_of(books[0]) == stock


def test_the_cancel_refund_gives_back_only_what_is_left(client, admin, books, razorpay):
    """A paid order refunded ₹100 in part, then cancelled: the cancel refund asks for the rest, not the total."""
    order = paid_online(client, razorpay, [(books[0], 1)])
    assert part_refund(client, order, admin, amount=100, reason="Price drop").status_code == 201
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert response.status_code == 200, response.get_json()
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.refund_error) == ("cancelled", "refunded", "")
    assert [call.body["amount"] for call in refund_calls(razorpay)] == [10000, 44000]
    assert razorpay.payment(row.razorpay_payment_id)["status"] == "refunded"


def test_a_refund_razorpay_refuses_for_good_stops_and_needs_attention(client, admin, books, razorpay):
    """Part of the payment was refunded at Razorpay behind the shop's back; the cancel refund asks for more
    than Razorpay holds and is refused (400 BAD_REQUEST_ERROR): the job stops at once (no retry, the sweep
    leaves it), keeps Razorpay's reason, and the dashboard asks a person to look."""
    order = paid_online(client, razorpay, [(books[0], 1)])
    payment_id = order_row(order["_id"]).razorpay_payment_id
    sdk = razorpay_sdk.Client(auth=(RAZORPAY_KEYS["RAZORPAY_KEY_ID"], RAZORPAY_KEYS["RAZORPAY_KEY_SECRET"]),
                              base_url=razorpay.base_url)
    sdk.payment.refund(payment_id, {"amount": 10000})
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert response.status_code == 200, response.get_json()
    row = order_row(order["_id"])
    assert (row.payment_status, row.refund_stopped, row.refund_attempts) == ("refund_pending", True, 1)
    assert "greater than amount captured" in row.refund_error
    calls = len(refund_calls(razorpay))
    assert refunds.pending_ids() == [] and tasks.sweep_refunds.call_local() == 0
    assert tasks.refund_order.call_local(row.id) == "nothing to do"
    assert len(refund_calls(razorpay)) == calls
    assert dashboard(client, admin)["refundsNeedingAttention"] == 1


# ---- the cash-on-delivery shipping deduction ---------------------------------------------------------------

def two_returns(client, auth, admin, books, reasons=("damaged", "damaged")):
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 1), (books[1], 1)], headers=shopper), admin)
    first = ask(client, order, [line(books[0], reason=reasons[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    second = ask(client, order, [line(books[1], reason=reasons[1])], shopper, refundTo=UPI).get_json()["returnRequest"]
    return order, first, second


def deducted(*returns) -> list[tuple[int, int]]:
    return [(return_row(made["_id"]).refund_paise, return_row(made["_id"]).shipping_deducted_paise)
            for made in returns]


def refund_cod(client, admin, made, book):
    step(client, made["_id"], admin, status="approved", method="pickup")
    step(client, made["_id"], admin, status="received", lines=[{"book": str(book.id), "resaleable": True}])
    response = step(client, made["_id"], admin, status="refunded", payoutReference=f"UTR{made['_id'][:6]}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["returnRequest"]


def test_a_rejected_first_return_passes_the_deduction_to_the_next(client, auth, admin, books):
    """Two returns: the first asked for carries the ₹40; rejected, the other one takes it, so it is deducted
    once and never skipped."""
    order, first, second = two_returns(client, auth, admin, books)
    assert deducted(first, second) == [(46000, 4000), (30000, 0)]
    assert step(client, first["_id"], admin, status="rejected", note="No damage in the photos.").status_code == 200
    assert deducted(second) == [(26000, 4000)]
    done = refund_cod(client, admin, second, books[1])
    assert (done["refundAmount"], done["shippingDeducted"]) == (260, 40)


def test_the_first_return_refunded_takes_the_deduction_whatever_the_order(client, auth, admin, books):
    """The second return is paid out first: it takes the ₹40 and the first is then refunded in full."""
    order, first, second = two_returns(client, auth, admin, books)
    done = refund_cod(client, admin, second, books[1])
    assert (done["refundAmount"], done["shippingDeducted"]) == (260, 40)
    assert deducted(first) == [(50000, 0)]
    done = refund_cod(client, admin, first, books[0])
    assert (done["refundAmount"], done["shippingDeducted"]) == (500, 0)
    total = db.session.scalar(select(func.sum(ReturnRequest.shipping_deducted_paise)))
    assert total == 4000


def test_the_shops_mistake_takes_no_deduction(client, auth, admin, books):
    """A return of a wrong or missing item pays nothing for the shipping; the next return of damage does."""
    order, first, second = two_returns(client, auth, admin, books, reasons=("wrong", "damaged"))
    assert deducted(first, second) == [(50000, 0), (26000, 4000)]


@pytest.mark.parametrize("threshold, expected", [(700, (26000, 4000)), (400, (30000, 0))],
                         ids=["below-the-threshold", "still-above"])
def test_a_return_below_free_shipping_deducts_the_shipping_it_waived(client, auth, admin, books, razorpay,
                                                                     threshold, expected):
    """Free shipping from ₹700: ₹800 of books shipped free; returning the ₹300 book leaves ₹500, so the refund
    gives up the ₹40 shipping that was waived (online too). From ₹400, ₹500 kept still ships free: nothing."""
    response = client.put("/api/admin/shop-settings", json={"freeShippingThreshold": threshold}, headers=admin)
    assert response.status_code == 200, response.get_json()
    shopper = auth.customer()
    order = paid_online(client, razorpay, [(books[0], 1), (books[1], 1)], shopper, shippingPrice=0, totalPrice=800)
    order = deliver(client, order, admin)
    made = ask(client, order, [line(books[1])], shopper)
    assert made.status_code == 201, made.get_json()
    assert deducted(made.get_json()["returnRequest"]) == [expected]
