"""Returns and refunds (product §7.10): a return asked for within the window of delivery, per line with a
reason and photos; approved, received (resaleable copies back in stock), refunded through Razorpay (a
partial refund, by a job, reconciled) or paid out to a UPI ID or bank account less the shipping fee; or
rejected with a reason. Each step is in the order's history and mailed; every refusal changes nothing.

Runs on the shop app (fake Razorpay and the SMTP sink), so payments, refunds and e-mails are real.
"""
import base64
import io
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image
from sqlalchemy import func, select, update

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import AuditEntry, OrderStatusChange, OutboxMail, ReturnRequest, User, utcnow
from bookstore.services import private_files
from tests.api.test_payments import online_order, pay, verify
from tests.factories import ADDRESS, placed
from tests.helpers import assert_refused, order_row, set_order, stock_of

UPI = {"upi": "asha.rao@okaxis"}
BANK = {"accountNumber": "001234567894321", "ifsc": "HDFC0001234", "holder": "Asha Rao"}


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def books(factories):
    return (factories.book(title="GATE Mechanical", price_paise=50000, stock=10),
            factories.book(title="CAT Quant", price_paise=30000, stock=10))


def deliver(client, order: dict, admin: dict) -> dict:
    """Ship every line and record the delivery: the order is delivered (cash on delivery: paid)."""
    response = client.post(f"/api/admin/orders/{order['_id']}/shipments", json={"courier": "DTDC", "awb": f"A{order['_id'][:8]}"},
                           headers=admin)
    assert response.status_code == 201, response.get_json()
    sid = response.get_json()["order"]["shipments"][0]["_id"]
    response = client.post(f"/api/admin/orders/{order['_id']}/shipments/{sid}/events", json={"status": "delivered"},
                           headers=admin)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["order"]["status"] == "delivered"
    return response.get_json()["order"]


def token_of(order: dict) -> str:
    return parse_qs(urlsplit(order["link"]).query)["token"][0]


def ask(client, order, lines, headers=None, token=None, **body):
    url = f"/api/orders/{order['_id']}/returns" + (f"?token={token}" if token else "")
    return client.post(url, json={"lines": lines, **body}, headers=headers or {})


def line(book, quantity=1, reason="damaged") -> dict:
    return {"book": str(book.id), "quantity": quantity, "reason": reason}


def step(client, return_id, admin, **body):
    return client.put(f"/api/admin/returns/{return_id}", json=body, headers=admin)


def return_count() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(ReturnRequest))


def return_row(public_id: str) -> ReturnRequest:
    db.session.expire_all()
    return db.session.scalars(select(ReturnRequest).where(ReturnRequest.public_id == public_id)).one()


def mails_to(email: str) -> list[OutboxMail]:
    db.session.expire_all()
    return db.session.scalars(select(OutboxMail).where(OutboxMail.to_address == email).order_by(OutboxMail.id)).all()


def history(order: dict) -> list[tuple[str, str]]:
    db.session.expire_all()
    return [(change.status, change.note) for change in order_row(order["_id"]).history
            if change.status.startswith("return")]


def png_data_url(width=40, height=30) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


# ---- cash on delivery ----------------------------------------------------------------------------------

def test_cash_on_delivery_return_to_upi_from_request_to_payout(client, auth, admin, books):
    """A shopper returns 2 of 3 damaged copies: the refund is their value less the ₹40 shipping, the UPI ID
    is shown masked; approved for pickup, received (resaleable: stock back), refunded with the payout's
    reference, after which the UPI ID is erased. Every step is in the history and mailed; the order stays
    delivered (one copy was kept)."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 3)], headers=shopper), admin)
    stock_before = stock_of(books[0])
    response = ask(client, order, [line(books[0], 2)], shopper, note="Cover torn", refundTo=UPI)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()["returnRequest"]
    assert made["status"] == "requested" and made["refundAmount"] == 960 and made["shippingDeducted"] == 40
    assert made["refundRoute"] == "upi" and made["refundTo"] == "as***@okaxis"
    assert [(x["title"], x["quantity"], x["reason"]) for x in made["lines"]] == [("GATE Mechanical", 2, "damaged")]
    mine = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]
    assert [r["_id"] for r in mine["returns"]] == [made["_id"]]
    assert mine["returnableLines"] == [{"book": str(books[0].id), "quantity": 1}] and mine["returnableUntil"]
    assert "asha.rao" not in str(mine)

    detail = client.get(f"/api/admin/returns/{made['_id']}", headers=admin).get_json()["returnRequest"]
    assert detail["refundDetails"]["upi"] == "asha.rao@okaxis" and detail["order"]["orderNumber"] == order["orderNumber"]

    reply = step(client, made["_id"], admin, status="approved", method="pickup")
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["returnRequest"]["method"] == "pickup"
    reply = step(client, made["_id"], admin, status="received", lines=[{"book": str(books[0].id), "resaleable": True}])
    assert reply.status_code == 200, reply.get_json()
    assert stock_of(books[0])[0] == stock_before[0] + 2
    assert order_row(order["_id"]).status == "delivered"
    assert_refused(step(client, made["_id"], admin, status="refunded"), 422, field="payoutReference")
    reply = step(client, made["_id"], admin, status="refunded", payoutReference="UTR123456789")
    assert reply.status_code == 200, reply.get_json()
    done = reply.get_json()["returnRequest"]
    assert done["status"] == "refunded" and done["payoutReference"] == "UTR123456789" and done["refundDetails"] is None
    row = return_row(made["_id"])
    assert (row.refund_upi, row.refund_account, row.refund_to_masked) == (None, None, "as***@okaxis")
    assert [status for status, _ in history(order)] == ["return_requested", "return_approved", "return_received",
                                                        "return_refunded"]
    subjects = [m.subject for m in mails_to(ADDRESS["email"])][-4:]
    number = order["orderNumber"]
    assert subjects == [f"Order {number}: we have your return request", f"Order {number}: your return is approved",
                        f"Order {number}: we have received your returned books", f"Order {number}: your refund has been made"]
    assert "as***@okaxis" in mails_to(ADDRESS["email"])[-1].body and "UTR123456789" in mails_to(ADDRESS["email"])[-1].body
    actions = db.session.scalars(select(AuditEntry.action).where(AuditEntry.entity_id == made["_id"])).all()
    assert sorted(actions) == ["return.approved", "return.received", "return.refunded"]


def test_a_guest_returns_everything_to_a_bank_account_and_the_order_is_returned(client, admin, books):
    """Through the order link: two returns cover every copy; the shipping fee is deducted once (the first);
    copies marked not resaleable stay off the shelf; when everything is received the order is `returned`
    and nothing more can be returned. Bank details are masked and erased on payout."""
    order = deliver(client, placed(client, [(books[0], 1), (books[1], 2)]), admin)
    token = token_of(order)
    first = ask(client, order, [line(books[0], 1, "damaged")], token=token, refundTo=BANK)
    assert first.status_code == 201, first.get_json()
    first = first.get_json()["returnRequest"]
    assert (first["refundAmount"], first["shippingDeducted"]) == (460, 40)
    assert first["refundTo"] == "Bank account ****4321 (HDFC0001234)"
    second = ask(client, order, [line(books[1], 2, "defective")], token=token,
                 refundTo={"upi": "ravi@ybl"}).get_json()["returnRequest"]
    assert (second["refundAmount"], second["shippingDeducted"]) == (600, 0)
    assert_refused(ask(client, order, [line(books[1], 1)], token=token, refundTo=UPI), 422, field="lines")

    stock_before = stock_of(books[1])[0]
    for made, resaleable in ((first, True), (second, False)):
        assert step(client, made["_id"], admin, status="approved", method="self-ship").status_code == 200
        book = books[0] if made is first else books[1]
        reply = step(client, made["_id"], admin, status="received", lines=[{"book": str(book.id), "resaleable": resaleable}])
        assert reply.status_code == 200, reply.get_json()
    assert stock_of(books[1])[0] == stock_before
    row = order_row(order["_id"])
    assert row.status == "returned" and row.stock_released
    assert row.history[-2].status == "returned" or any(c.status == "returned" for c in row.history)
    guest_view = client.get(f"/api/orders/{order['_id']}?token={token}").get_json()["order"]
    assert [r["status"] for r in guest_view["returns"]] == ["received", "received"]
    assert guest_view["returnableLines"] == [] and guest_view["returnableUntil"] is None
    assert_refused(ask(client, order, [line(books[0], 1)], token=token, refundTo=UPI), 409,
                   "Every book of this order has been returned.")
    reply = step(client, first["_id"], admin, status="refunded", payoutReference="NEFT-0099")
    assert reply.status_code == 200, reply.get_json()
    row = return_row(first["_id"])
    assert (row.refund_account, row.refund_ifsc, row.refund_holder) == (None, None, None)
    assert row.refund_to_masked == "Bank account ****4321 (HDFC0001234)"


def test_a_rejected_return_frees_its_copies_and_keeps_the_shipping_for_the_next(client, auth, admin, books):
    """Rejected needs a reason (mailed, in the history); the copies may be asked for again, and as the
    rejected return's shipping deduction no longer counts, the next return takes it."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 1)], headers=shopper), admin)
    made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    assert_refused(step(client, made["_id"], admin, status="rejected"), 422, field="note")
    reply = step(client, made["_id"], admin, status="rejected", note="The photos show no damage.")
    assert reply.status_code == 200 and reply.get_json()["returnRequest"]["status"] == "rejected"
    assert return_row(made["_id"]).refund_upi is None
    assert history(order)[-1] == ("return_rejected", "The photos show no damage.")
    assert "Reason: The photos show no damage." in mails_to(ADDRESS["email"])[-1].body
    again = ask(client, order, [line(books[0])], shopper, refundTo=UPI)
    assert again.status_code == 201 and again.get_json()["returnRequest"]["shippingDeducted"] == 40


def test_the_discount_is_shared_by_value(client, auth, admin, books):
    """A coupon's discount is taken off the refund in proportion to the value returned."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 1), (books[1], 1)], headers=shopper), admin)
    row = order_row(order["_id"])
    set_order(order["_id"], discount_paise=8000, total_paise=row.total_paise - 8000)  # ₹80 off ₹800 of books
    made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    assert made["refundAmount"] == 500 - 50 - 40


# ---- online payments -----------------------------------------------------------------------------------

def paid_and_delivered(client, razorpay, books, admin, shopper, quantity=2) -> dict:
    order = online_order(client, books[0], quantity, headers=shopper)
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    return deliver(client, order, admin)


def test_an_online_return_is_refunded_in_part_through_razorpay(client, auth, admin, books, razorpay):
    """Online: no refund details are asked for; marking the return refunded asks for the refund job, which
    refunds the returned copies' value (no shipping deduction) through Razorpay with the return's
    idempotency key; the payment is partly refunded and the order stays paid."""
    shopper = auth.customer()
    order = paid_and_delivered(client, razorpay, books, admin, shopper)
    made = ask(client, order, [line(books[0], 1, "missing")], shopper).get_json()["returnRequest"]
    assert (made["refundRoute"], made["refundAmount"], made["shippingDeducted"]) == ("razorpay", 500, 0)
    assert step(client, made["_id"], admin, status="approved", method="pickup").status_code == 200
    assert step(client, made["_id"], admin, status="received").status_code == 200
    reply = step(client, made["_id"], admin, status="refunded")
    assert reply.status_code == 200, reply.get_json()
    row = return_row(made["_id"])
    assert row.status == "refunded" and row.razorpay_refund_id and row.refund_attempts == 1
    payment = razorpay.payment(order_row(order["_id"]).razorpay_payment_id)
    assert payment["amount_refunded"] == 50000 and payment["refund_status"] == "partial"
    assert razorpay.idempotency_keys == [f"return-{made['_id']}"]
    refund = razorpay.refund(row.razorpay_refund_id)
    assert refund["notes"] == {"order_id": order["_id"], "return_id": made["_id"]}
    assert order_row(order["_id"]).payment_status == "paid"
    assert history(order)[-1] == ("return_refunded", "₹500.00 refunded")
    assert "to your original payment" in mails_to(ADDRESS["email"])[-1].body


def test_an_online_refund_that_failed_is_made_once_by_the_sweep(client, auth, admin, books, razorpay):
    """Razorpay fails: the return stays refund_pending with the error; a refund made whose answer was lost
    is found by the next attempt instead of being made twice."""
    shopper = auth.customer()
    order = paid_and_delivered(client, razorpay, books, admin, shopper)
    made = ask(client, order, [line(books[0], 2)], shopper).get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="self-ship")
    step(client, made["_id"], admin, status="received")
    razorpay.fail_next(status=500)
    reply = step(client, made["_id"], admin, status="refunded")
    assert reply.status_code == 200, reply.get_json()
    row = return_row(made["_id"])
    assert row.status == "refund_pending" and row.refund_error
    db.session.execute(update(ReturnRequest).where(ReturnRequest.id == row.id).values(refund_attempts=3))
    db.session.commit()
    dashboard = client.get("/api/admin/dashboard/stats", headers=admin).get_json()
    assert dashboard["refundsNeedingAttention"] == 1  # failing again and again: a person should look
    razorpay.answer_late_next(3)  # the refund is made but its answer comes after the 2 s timeout
    with pytest.raises(Exception):
        tasks.refund_return.call_local(row.id)
    tasks.sweep_refunds()
    row = return_row(made["_id"])
    assert row.status == "refunded"
    payment = razorpay.payment(order_row(order["_id"]).razorpay_payment_id)
    assert payment["amount_refunded"] == 100000
    assert len([r for r in razorpay.refunds.values() if r["payment_id"] == payment["id"]]) == 1


# ---- photos --------------------------------------------------------------------------------------------

def test_photos_are_checked_stored_privately_and_shown_only_to_the_order(client, auth, admin, books, factories):
    """A photo is checked as covers are, kept in private storage (not under /media), readable by the owner,
    the order link and an administrator, and by nobody else; at most 3, only while requested."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 1)], headers=shopper), admin)
    made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    url = f"/api/orders/{order['_id']}/returns/{made['_id']}/photos"
    reply = client.post(url, json={"photo": png_data_url()}, headers=shopper)
    assert reply.status_code == 201, reply.get_json()
    photo = reply.get_json()["returnRequest"]["photos"][0]
    key = return_row(made["_id"]).photos[0].key
    assert private_files.exists(key) and "media" not in str(private_files.private_root() / key)
    for headers, path in ((shopper, photo["url"]), ({}, photo["url"] + f"?token={token_of(order)}"),
                          (admin, photo["url"])):
        response = client.get(path, headers=headers)
        assert response.status_code == 200 and response.mimetype == "image/jpeg"
        assert response.headers["Cache-Control"] == "private, no-store"
        assert Image.open(io.BytesIO(response.data)).format == "JPEG"
    admin_url = f"/api/admin/returns/{made['_id']}/photos/{photo['_id']}"
    assert client.get(admin_url, headers=admin).status_code == 200
    other = auth.customer("other@example.in")
    assert_refused(client.get(photo["url"], headers=other), 404)
    assert_refused(client.get(admin_url, headers=shopper), 403)

    assert_refused(client.post(url, json={"photo": "data:image/png;base64,aGVsbG8="}, headers=shopper), 422, field="photo")
    for _ in range(2):
        assert client.post(url, json={"photo": png_data_url()}, headers=shopper).status_code == 201
    assert_refused(client.post(url, json={"photo": png_data_url()}, headers=shopper), 409,
                   "A return takes at most 3 photos.")
    assert_refused(client.post(url, json={"photo": png_data_url()}, headers=other), 404)


# ---- refusals ------------------------------------------------------------------------------------------

@pytest.fixture
def delivered_cod(client, auth, admin, books):
    shopper = auth.customer()
    return deliver(client, placed(client, [(books[0], 2)], headers=shopper), admin), shopper


@pytest.mark.parametrize("lines, extra, message", [
    ([{"book": "999999", "quantity": 1, "reason": "damaged"}], {"refundTo": UPI}, "Book 999999 is not on this order."),
    ("book:3", {"refundTo": UPI}, "Only 2 of GATE Mechanical can still be returned."),
    ("book:1:changed-my-mind", {"refundTo": UPI},
     "A return is accepted for damaged, defective, wrong or missing items only."),
    ("book:0", {"refundTo": UPI}, "Quantity must be at least 1."),
    ("book:1", {}, "Cash on delivery is refunded to a UPI ID or a bank account: please give one."),
    ("book:1", {"refundTo": {"upi": "not a upi"}}, "Enter a UPI ID like name@okaxis."),
    ("book:1", {"refundTo": {**BANK, "ifsc": "HDFC1234567"}}, "The IFSC must be 11 characters: 4 letters, 0, then 6 "
                                                               "letters or digits (e.g. HDFC0001234)."),
    ("book:1", {"refundTo": {**BANK, "accountNumber": "12ab"}}, "The account number must be 9 to 18 digits."),
    ("book:1", {"refundTo": {**BANK, "holder": " "}}, "Enter the account holder's name as the bank has it."),
    ([], {"refundTo": UPI}, "Choose between 1 and 20 books to return."),
])
def test_bad_requests_are_refused_and_change_nothing(client, delivered_cod, books, lines, extra, message):
    """Unknown book, more copies than delivered, a reason outside the list, no or malformed refund details for
    cash on delivery: 422 with a clear message, no return written."""
    order, shopper = delivered_cod
    if isinstance(lines, str):
        _, quantity, *reason = lines.split(":")
        lines = [{"book": str(books[0].id), "quantity": int(quantity), "reason": reason[0] if reason else "damaged"}]
    reply = assert_refused(ask(client, order, lines, shopper, **extra), 422)
    assert message in str(reply["errors"]), reply
    assert return_count() == 0


def test_not_delivered_window_passed_and_others_orders_are_refused(client, auth, admin, books, delivered_cod):
    """Not delivered: 409; past the return window: 409 naming the days and the delivery date; another
    shopper's order: 404; a forged link: 404. Nothing is written."""
    order, shopper = delivered_cod
    pending = placed(client, [(books[1], 1)], headers=shopper)
    assert_refused(ask(client, pending, [line(books[1])], shopper, refundTo=UPI), 409, "Only a delivered order can be returned.")
    other = auth.customer("other@example.in")
    assert_refused(ask(client, order, [line(books[0])], other, refundTo=UPI), 404)
    assert_refused(ask(client, order, [line(books[0])], token="forged.token", refundTo=UPI), 404)
    assert_refused(ask(client, order, [line(books[0])], refundTo=UPI), 401)
    db.session.execute(OrderStatusChange.__table__.update()
                       .where(OrderStatusChange.order_id == order_row(order["_id"]).id,
                              OrderStatusChange.status == "delivered")
                       .values(at=utcnow() - timedelta(days=7, minutes=1)))
    db.session.commit()
    reply = assert_refused(ask(client, order, [line(books[0])], shopper, refundTo=UPI), 409)
    assert reply["message"].startswith("Returns are accepted within 7 days of delivery; this order was delivered on ")
    assert client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"] == []
    assert return_count() == 0


def test_wrong_steps_are_409_and_missing_details_422(client, admin, delivered_cod, books):
    """Each status may take only its next steps (409, nothing changed); approve needs a method; an unknown
    return is 404; a received mark for a book not in the return is 422."""
    order, shopper = delivered_cod
    made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    assert_refused(step(client, made["_id"], admin, status="received"), 409,
                   "A requested return can only be approved or rejected, not received.")
    assert_refused(step(client, made["_id"], admin, status="refunded"), 409)
    assert_refused(step(client, made["_id"], admin, status="approved"), 422, field="method")
    assert_refused(step(client, made["_id"], admin, status="approved", method="drone"), 422, field="method")
    assert_refused(step(client, made["_id"], admin, status="cancelled"), 422, field="status")
    assert_refused(step(client, "nope", admin, status="approved", method="pickup"), 404)
    assert return_row(made["_id"]).status == "requested"
    step(client, made["_id"], admin, status="approved", method="pickup")
    assert_refused(step(client, made["_id"], admin, status="approved", method="pickup"), 409)
    assert_refused(step(client, made["_id"], admin, status="received",
                        lines=[{"book": str(books[1].id), "resaleable": True}]), 422, field="lines")
    assert return_row(made["_id"]).status == "approved"
    step(client, made["_id"], admin, status="received")
    step(client, made["_id"], admin, status="refunded", payoutReference="UPI-REF-1")
    for status in ("approved", "rejected", "received", "refunded"):
        assert_refused(step(client, made["_id"], admin, status=status, method="pickup", note="x",
                            payoutReference="Y"), 409, "This return is refunded and cannot change any more.")


def test_the_admin_list_filters_by_status(client, admin, auth, delivered_cod, books):
    """The admin list shows every return, or one status's; a shopper may not read it."""
    order, shopper = delivered_cod
    first = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    second = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    step(client, first["_id"], admin, status="approved", method="pickup")
    everything = client.get("/api/admin/returns", headers=admin).get_json()
    assert [r["_id"] for r in everything["returns"]] == [second["_id"], first["_id"]]
    assert everything["pagination"]["total"] == 2
    approved = client.get("/api/admin/returns?status=approved", headers=admin).get_json()["returns"]
    assert [r["_id"] for r in approved] == [first["_id"]]
    assert_refused(client.get("/api/admin/returns?status=lost", headers=admin), 422, field="status")
    assert_refused(client.get("/api/admin/returns", headers=shopper), 403)
    assert db.session.scalar(select(func.count()).select_from(User)) >= 2


def test_an_open_return_keeps_the_account_open_and_closing_erases_refund_details(client, auth, admin, books):
    """A return not yet refunded needs the shopper's details: closing the account is 409 until it is settled;
    then the return's note and any refund details left are erased with the account."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 2)], headers=shopper), admin)
    made = ask(client, order, [line(books[0])], shopper, note="My flat is 4B", refundTo=UPI).get_json()["returnRequest"]
    response = client.post("/api/auth/close-account", headers=shopper, json={"password": "secret-pass"})
    assert_refused(response, 409, "You have 1 return(s) not yet refunded. Please close the account once they are.")
    assert return_row(made["_id"]).refund_upi == "asha.rao@okaxis"
    step(client, made["_id"], admin, status="rejected", note="Outside the policy.")
    response = client.post("/api/auth/close-account", headers=shopper, json={"password": "secret-pass"})
    assert response.status_code == 200, response.get_json()
    row = return_row(made["_id"])
    assert (row.note, row.refund_upi) == ("", None)
