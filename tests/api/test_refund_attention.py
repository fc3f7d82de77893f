"""Refunds that need a person (product §6.6, §10.8): the administrator's list of every refund Razorpay refused for
good or that failed ATTENTION_AFTER_ATTEMPTS times (an order's own, a return's, an RTO parcel's or a part refund),
and the retry once the cause is fixed; a cash-on-delivery return's payout and the orders export after part
refunds; whether the shopper may still cancel, as the order says it.

Runs on the shop app (fake Razorpay and the SMTP sink), so payments and refunds are real.
"""
import pytest
from sqlalchemy import select, update

from bookstore.extensions import db
from bookstore.models import AuditEntry, OrderRefund, ReturnRequest
from bookstore.services import refunds
from tests.api.test_admin_exports import read_csv
from tests.api.test_digital_books import download, mixed_paid_order
from tests.api.test_payments import refund_calls
from tests.api.test_refunds import paid_online, part_refund, refund_rows
from tests.api.test_returns import UPI, ask, deliver, line, return_row, step
from tests.factories import placed
from tests.helpers import assert_refused, order_row

REFUSED = "The refund amount provided is greater than amount captured."


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def books(factories):
    return (factories.book(title="GATE Mechanical", price_paise=50000, stock=10),
            factories.book(title="CAT Quant", price_paise=30000, stock=10))


def refuse_next_refund(razorpay):
    """Razorpay answers the next call with a refusal it would repeat (400 BAD_REQUEST_ERROR)."""
    razorpay.fail_next(status=400, code="BAD_REQUEST_ERROR", description=REFUSED)


def attention(client, admin, **query):
    response = client.get("/api/admin/refunds/attention", query_string=query, headers=admin)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def retry(client, admin, kind, refund_id):
    return client.post(f"/api/admin/refunds/{kind}/{refund_id}/retry", headers=admin)


def cancelled_and_refused(client, admin, razorpay, book) -> dict:
    order = paid_online(client, razorpay, [(book, 1)])
    refuse_next_refund(razorpay)
    response = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert response.status_code == 200, response.get_json()
    assert order_row(order["_id"]).refund_stopped is True
    return order


def returned_and_failing(client, auth, admin, razorpay, book) -> tuple[dict, dict]:
    """A paid, delivered order whose return's refund failed (a server error) ATTENTION_AFTER_ATTEMPTS times."""
    shopper = auth.customer()
    order = deliver(client, paid_online(client, razorpay, [(book, 2)], headers=shopper), admin)
    made = ask(client, order, [line(book)], shopper).get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="self-ship")
    step(client, made["_id"], admin, status="received")
    razorpay.fail_next(status=500)
    assert step(client, made["_id"], admin, status="refunded").status_code == 200
    db.session.execute(update(ReturnRequest).where(ReturnRequest.public_id == made["_id"])
                       .values(refund_attempts=refunds.ATTENTION_AFTER_ATTEMPTS))
    db.session.commit()
    return order, made


def refused_part_refund(client, admin, razorpay, book, amount=100) -> tuple[dict, OrderRefund]:
    order = deliver(client, paid_online(client, razorpay, [(book, 1)]), admin)
    refuse_next_refund(razorpay)
    assert part_refund(client, order, admin, amount=amount, reason="Price drop").status_code == 201
    row = refund_rows()[-1]
    assert (row.status, row.refund_error) == ("failed", f"Razorpay refused the refund: {REFUSED}")
    return order, row


# ---- the list ------------------------------------------------------------------------------------------------------

def test_the_list_shows_every_refund_that_needs_a_person(client, auth, admin, books, razorpay):
    """A cancel refund refused for good, a return's refund failing again and again and a part refund refused are
    listed, oldest first, with the order, kind, amount, attempts, Razorpay's error and since when; a part refund
    made and a refund still being tried are not. The dashboard's count is the list's total; paged like the other
    admin lists; administrators only."""
    cancelled = cancelled_and_refused(client, admin, razorpay, books[0])
    returned, made = returned_and_failing(client, auth, admin, razorpay, books[1])
    parted, row = refused_part_refund(client, admin, razorpay, books[0])
    fine = paid_online(client, razorpay, [(books[1], 1)])
    assert part_refund(client, fine, admin, amount=50, reason="Late").status_code == 201
    assert refund_rows()[-1].status == "refunded"

    reply = attention(client, admin)
    assert reply["success"] is True and reply["pagination"]["totalRefunds"] == 3
    items = reply["refunds"]
    assert [(item["kind"], item["_id"], item["order"]["_id"]) for item in items] == [
        ("cancel", cancelled["_id"], cancelled["_id"]), ("return", made["_id"], returned["_id"]),
        ("part", row.public_id, parted["_id"])]
    first, second, third = items
    assert first["order"]["orderNumber"] == cancelled["orderNumber"]
    assert (first["amount"], first["attempts"], first["stopped"]) == (540, 1, True)
    assert first["error"] == f"Razorpay refused the refund: {REFUSED}" and first["since"].endswith("+00:00")
    assert (second["amount"], second["attempts"], second["stopped"]) == (300, 3, False) and second["error"]
    assert (third["amount"], third["attempts"], third["stopped"]) == (100, 1, True)
    assert client.get("/api/admin/dashboard/stats", headers=admin).get_json()["refundsNeedingAttention"] == 3

    paged = attention(client, admin, page=2, limit=2)
    assert [item["kind"] for item in paged["refunds"]] == ["part"]
    assert (paged["pagination"]["total"], paged["pagination"]["totalPages"]) == (3, 2)
    assert_refused(client.get("/api/admin/refunds/attention?limit=0", headers=admin), 422, field="limit")
    assert client.get("/api/admin/refunds/attention", headers=auth.customer("other@example.in")).status_code == 403
    assert client.get("/api/admin/refunds/attention").status_code == 401


# ---- the retry -----------------------------------------------------------------------------------------------------

def test_a_stopped_cancel_refund_is_retried_once_the_cause_is_fixed(client, admin, books, razorpay):
    """The retry clears the stop and the error, is audited, and the job refunds what is left; the refund leaves
    the list. A second retry is 409: nothing is waiting."""
    order = cancelled_and_refused(client, admin, razorpay, books[0])
    response = retry(client, admin, "cancel", order["_id"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["order"]["paymentStatus"] == "refunded"
    row = order_row(order["_id"])
    assert (row.payment_status, row.refund_stopped, row.refund_error) == ("refunded", False, "")
    assert razorpay.payment(row.razorpay_payment_id)["status"] == "refunded"
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "refund.retry")).one()
    assert (entry.entity_type, entry.entity_id) == ("order", order["_id"])
    assert entry.before["error"] == f"Razorpay refused the refund: {REFUSED}" and entry.after["error"] == ""
    assert attention(client, admin)["refunds"] == []
    assert_refused(retry(client, admin, "cancel", order["_id"]), 409, "This refund is not waiting to be retried.")


def test_a_return_refund_failing_again_and_again_is_retried(client, auth, admin, books, razorpay):
    order, made = returned_and_failing(client, auth, admin, razorpay, books[1])
    response = retry(client, admin, "return", made["_id"])
    assert response.status_code == 200, response.get_json()
    row = return_row(made["_id"])
    assert (row.status, row.refund_error, row.refund_stopped) == ("refunded", "", False)
    assert row.razorpay_refund_id and attention(client, admin)["refunds"] == []


def test_a_refused_part_refund_is_retried_and_still_capped(client, admin, books, razorpay):
    """A failed part refund retried asks Razorpay again; once the rest of the order was refunded meanwhile, the
    retry is 409 with nothing asked of Razorpay: a refund never asks for more than is left."""
    order, row = refused_part_refund(client, admin, razorpay, books[0])
    response = retry(client, admin, "part", row.public_id)
    assert response.status_code == 200, response.get_json()
    assert (refund_rows()[-1].status, refund_rows()[-1].refund_error) == ("refunded", "")

    other, failed = refused_part_refund(client, admin, razorpay, books[1])
    assert part_refund(client, other, admin, amount=340, reason="Everything").status_code == 201
    calls = len(refund_calls(razorpay))
    assert_refused(retry(client, admin, "part", failed.public_id), 409, "Nothing of this order is left to refund.")
    assert len(refund_calls(razorpay)) == calls
    db.session.expire_all()
    assert db.session.get(OrderRefund, failed.id).status == "failed"


def test_a_retry_of_something_unknown_is_404(client, admin, books, razorpay):
    order = cancelled_and_refused(client, admin, razorpay, books[0])
    assert_refused(retry(client, admin, "refund", order["_id"]), 404,
                   "No such kind of refund: cancel, return, rto or part.")
    assert_refused(retry(client, admin, "return", order["_id"]), 404, "Refund not found.")
    assert_refused(retry(client, admin, "cancel", "x" * 30), 404, "Refund not found.")
    assert_refused(retry(client, admin, "rto", order["_id"]), 404, "Refund not found.")
    assert order_row(order["_id"]).refund_stopped is True


# ---- caps that leaked ----------------------------------------------------------------------------------------------

def test_a_cash_return_payout_is_capped_at_what_is_left_after_part_refunds(client, auth, admin, books):
    """A delivered cash-on-delivery order refunded in part by a payout: the return's payout is refused (409 with the
    figure) when it is more than the order may still refund, and the return stays received."""
    shopper = auth.customer()
    order = deliver(client, placed(client, [(books[0], 1), (books[1], 1)], headers=shopper), admin)
    left = refunds.refundable(order_row(order["_id"]))
    assert part_refund(client, order, admin, amount=(left - 10000) / 100, reason="Late",
                       payoutReference="UTR1").status_code == 201
    made = ask(client, order, [line(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="pickup")
    step(client, made["_id"], admin, status="received", lines=[{"book": str(books[0].id), "resaleable": True}])
    response = step(client, made["_id"], admin, status="refunded", payoutReference="UTR2")
    assert_refused(response, 409, "At most ₹100.00 of this order can still be refunded, less than "
                                   "this return's ₹460.00.")
    assert (return_row(made["_id"]).status, return_row(made["_id"]).payout_reference) == ("received", None)


def test_the_orders_export_shows_what_was_paid_after_refunds(client, admin, books, razorpay):
    order = paid_online(client, razorpay, [(books[0], 1)])
    assert part_refund(client, order, admin, amount=100, reason="Price drop").status_code == 201
    unpaid = placed(client, [(books[1], 1)])
    rows = read_csv(client.get("/api/admin/orders/export.csv", headers=admin))
    column = rows[0].index("Paid after refunds (INR)")
    assert rows[0][column - 1] == "Total (INR)"
    by_number = {row[0]: row for row in rows[1:]}
    assert by_number[order["orderNumber"]][column - 1:column + 1] == ["540.00", "440.00"]
    assert by_number[unpaid["orderNumber"]][column] == "0.00"


# ---- whether the shopper may cancel --------------------------------------------------------------------------------

def test_the_order_says_whether_the_shopper_may_cancel_it(client, factories, auth, razorpay, books):
    """`canCancel` follows the cancel's own rules: true for a fresh order; false once an e-book of it was downloaded
    (the cancel is 409), and for a cancelled one."""
    shopper = auth.customer()
    order, _printed = mixed_paid_order(client, razorpay, factories, shopper)
    url = f"/api/orders/{order['_id']}"
    assert client.get(url, headers=shopper).get_json()["order"]["canCancel"] is True
    item = next(item for item in order["orderItems"] if item["digital"])
    assert download(client, order, item, headers=shopper).status_code == 200
    assert client.get(url, headers=shopper).get_json()["order"]["canCancel"] is False
    listed = client.get("/api/orders/mine", headers=shopper).get_json()["orders"]
    assert [row["canCancel"] for row in listed] == [False]
    assert client.post(f"{url}/cancel", headers=shopper).status_code == 409

    fresh = placed(client, [(books[0], 1)], headers=shopper)
    assert fresh["canCancel"] is True
    listed = client.get("/api/orders/mine", headers=shopper).get_json()["orders"]
    assert [row["canCancel"] for row in listed] == [True, False]
    cancelled = client.post(f"/api/orders/{fresh['_id']}/cancel", headers=shopper)
    assert cancelled.status_code == 200 and cancelled.get_json()["order"]["canCancel"] is False
