"""The scheduled jobs, run as the consumer runs them (inline here): payment reconciliation, the expiry of
unpaid holds and pruning.
Each is idempotent: a second run changes nothing."""
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import AccountToken, RevokedToken, utcnow
from bookstore.services.orders import UNCONFIRMED_GRACE
from bookstore.services.payments import RECONCILE_CANCELLED_FOR
from tests.api.test_payments import create_razorpay_order, online_order, paid_mails, refund_calls
from tests.helpers import expire_payment_window, order_row, set_order, stock_of, subjects


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def book(factories):
    return factories.book(title="NEET Biology", price_paise=52000, stock=4)


def test_a_payment_whose_verify_and_webhook_never_came_is_found_and_recorded_once(client, razorpay, smtp_sink,
                                                                                   book):
    """The shopper paid in Checkout but the browser never came back and no webhook arrived: the
    reconciliation job fetches the Razorpay order's payments, marks the order paid and sends the
    confirmation once; orders younger than five minutes are left to verify and the webhook."""
    order = online_order(client, book, 2)
    fields = razorpay.pay(create_razorpay_order(client, order)["id"])
    tasks.reconcile_payments()
    assert order_row(order["_id"]).payment_status == "awaiting"  # still young

    set_order(order["_id"], created_at=utcnow() - timedelta(minutes=6))
    tasks.reconcile_payments()
    row = order_row(order["_id"])
    assert (row.payment_status, row.razorpay_payment_id) == ("paid", fields["razorpay_payment_id"])
    assert len(paid_mails(smtp_sink)) == 1 and stock_of(book) == (2, 2)
    tasks.reconcile_payments()
    assert len(paid_mails(smtp_sink)) == 1 and order_row(order["_id"]).payment_status == "paid"


def test_reconciliation_leaves_unpaid_orders_awaiting(client, razorpay, book):
    """A Razorpay order with no captured payment stays awaiting (the expiry job deals with it later)."""
    order = online_order(client, book)
    create_razorpay_order(client, order)
    set_order(order["_id"], created_at=utcnow() - timedelta(minutes=6))
    tasks.reconcile_payments()
    assert order_row(order["_id"]).payment_status == "awaiting"


def test_pruning_deletes_only_what_has_long_expired(app, factories):
    """Links spent or expired over a week ago and revocations of expired tokens go; recent ones stay,
    so a late click still hears 'expired' or 'used'."""
    user = factories.user(email="asha@example.in")
    now = utcnow()
    rows = [
        AccountToken(user_id=user.id, purpose="verify-email", token_hash="a" * 64, email=user.email,
                     expires_at=now - timedelta(days=8)),
        AccountToken(user_id=user.id, purpose="reset-password", token_hash="b" * 64, email=user.email,
                     expires_at=now - timedelta(hours=2)),
        AccountToken(user_id=user.id, purpose="reset-password", token_hash="c" * 64, email=user.email,
                     expires_at=now + timedelta(hours=1), used_at=now - timedelta(days=9)),
        RevokedToken(jti="old", expires_at=now - timedelta(minutes=1)),
        RevokedToken(jti="live", expires_at=now + timedelta(hours=1)),
    ]
    db.session.add_all(rows)
    db.session.commit()
    tasks.prune_expired()
    db.session.expire_all()
    assert db.session.scalars(select(AccountToken.token_hash)).all() == ["b" * 64]
    assert db.session.scalars(select(RevokedToken.jti)).all() == ["live"]
    tasks.prune_expired()
    assert db.session.scalar(select(func.count()).select_from(AccountToken)) == 1


# --- an expiring hold whose payment Razorpay took (product §6.5) ------------------------------------

def order_payment_calls(razorpay, razorpay_order_id: str | None = None) -> list:
    """The questions asked of Razorpay about its orders' payments (of one order, if named)."""
    return [call for call in razorpay.calls("GET", "/v1/orders/") if call.path.endswith("/payments")
            and (razorpay_order_id is None or call.path == f"/v1/orders/{razorpay_order_id}/payments")]


@pytest.mark.parametrize("capture", [True, False], ids=["captured", "authorized"])
def test_an_expiring_order_paid_at_razorpay_is_recorded_paid_not_cancelled(client, razorpay, smtp_sink, book,
                                                                          capture):
    """Paid in Checkout, but neither verify nor the webhook came: before releasing the hold the expiry
    job asks Razorpay, finds the payment (capturing an authorized one) and records the order paid, as
    verify would: stock kept, one paid mail, no cancel and no refund."""
    order = online_order(client, book, 2)
    fields = razorpay.pay(create_razorpay_order(client, order)["id"], capture=capture)
    expire_payment_window(order["_id"])

    tasks.expire_unpaid_orders()
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.razorpay_payment_id) == \
        ("pending", "paid", fields["razorpay_payment_id"])
    assert row.stock_released is False and stock_of(book) == (2, 2)
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "captured"
    assert refund_calls(razorpay) == []
    assert len(paid_mails(smtp_sink)) == 1 and not any("cancelled" in s for s in subjects(smtp_sink))

    tasks.expire_unpaid_orders()
    tasks.reconcile_payments()
    assert order_row(order["_id"]).payment_status == "paid" and len(paid_mails(smtp_sink)) == 1


def test_expiry_keeps_a_hold_razorpay_cannot_confirm_until_its_grace_runs_out(client, razorpay, smtp_sink, book):
    """Razorpay unreachable: holds with a Razorpay order stay for the next run, and the first timeout
    ends the questions of this run (one slow call, not one per order); a hold without a Razorpay order
    is released at once. Next run they are settled. A hold unconfirmable for longer than the grace past
    its window is released anyway."""
    unpaid = online_order(client, book, 1)
    unpaid_rp = create_razorpay_order(client, unpaid)["id"]
    paid = online_order(client, book, 1, email="ravi@example.in")
    fields = razorpay.pay(create_razorpay_order(client, paid)["id"])
    never_opened = online_order(client, book, 1, email="meena@example.in")
    for order in (unpaid, paid, never_opened):
        expire_payment_window(order["_id"])
    razorpay.delay_next(3)  # past the shop's 2 s timeout

    tasks.expire_unpaid_orders()
    assert len(order_payment_calls(razorpay)) == 1
    assert [order_row(o["_id"]).status for o in (unpaid, paid, never_opened)] == ["pending", "pending", "cancelled"]
    assert order_row(paid["_id"]).payment_status == "awaiting" and stock_of(book) == (2, 2)

    tasks.expire_unpaid_orders()
    assert (order_row(unpaid["_id"]).status, order_row(unpaid["_id"]).payment_status) == ("cancelled", "awaiting")
    row = order_row(paid["_id"])
    assert (row.status, row.payment_status, row.razorpay_payment_id) == \
        ("pending", "paid", fields["razorpay_payment_id"])
    assert stock_of(book) == (3, 1) and len(paid_mails(smtp_sink)) == 1

    late = online_order(client, book, 1, email="kabir@example.in")
    create_razorpay_order(client, late)
    set_order(late["_id"], payment_expires_at=utcnow() - UNCONFIRMED_GRACE + timedelta(minutes=1))
    razorpay.delay_next(3)
    tasks.expire_unpaid_orders()
    assert order_row(late["_id"]).status == "pending"
    set_order(late["_id"], payment_expires_at=utcnow() - UNCONFIRMED_GRACE - timedelta(minutes=1))
    razorpay.delay_next(3)
    tasks.expire_unpaid_orders()
    assert order_row(late["_id"]).status == "cancelled" and stock_of(book) == (3, 1)
    assert order_payment_calls(razorpay, unpaid_rp) != []


def test_a_razorpay_error_about_one_hold_does_not_stop_the_others(client, razorpay, smtp_sink, book):
    """Razorpay answers one question with an error (quickly, unlike a timeout): that hold waits for the next
    run and the job goes on asking about the next one, which is found paid."""
    first = online_order(client, book, 1)
    create_razorpay_order(client, first)
    second = online_order(client, book, 1, email="ravi@example.in")
    fields = razorpay.pay(create_razorpay_order(client, second)["id"])
    for order in (first, second):
        expire_payment_window(order["_id"])
    razorpay.fail_next(500)

    tasks.expire_unpaid_orders()
    assert (order_row(first["_id"]).status, order_row(first["_id"]).payment_status) == ("pending", "awaiting")
    row = order_row(second["_id"])
    assert (row.status, row.payment_status, row.razorpay_payment_id) == \
        ("pending", "paid", fields["razorpay_payment_id"])
    assert len(order_payment_calls(razorpay)) == 2 and stock_of(book) == (2, 2)

    tasks.expire_unpaid_orders()
    assert order_row(first["_id"]).status == "cancelled" and stock_of(book) == (3, 1)


def test_reconciliation_refunds_a_payment_captured_on_a_cancelled_order(client, razorpay, smtp_sink, book):
    """The payment is captured after the hold was released and no signal arrives: reconciliation also asks
    about cancelled orders still awaiting, records the payment on the cancelled order and refunds it through
    the refund job, once; the stock is not taken again. An order cancelled longer than RECONCILE_CANCELLED_FOR
    ago is no longer asked about, so the questions do not grow with every abandoned checkout."""
    order = online_order(client, book, 2)
    razorpay_order = create_razorpay_order(client, order)["id"]
    old = online_order(client, book, 1, email="ravi@example.in")
    old_razorpay_order = create_razorpay_order(client, old)["id"]
    for each in (order, old):
        expire_payment_window(each["_id"])
    tasks.expire_unpaid_orders()
    assert stock_of(book) == (4, 0)
    fields = razorpay.pay(razorpay_order)
    razorpay.pay(old_razorpay_order)
    set_order(order["_id"], created_at=utcnow() - timedelta(minutes=40))
    set_order(old["_id"], created_at=utcnow() - RECONCILE_CANCELLED_FOR - timedelta(hours=1),
              cancelled_at=utcnow() - RECONCILE_CANCELLED_FOR - timedelta(minutes=1))
    asked_about_old = len(order_payment_calls(razorpay, old_razorpay_order))

    tasks.reconcile_payments()
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.razorpay_payment_id) == \
        ("cancelled", "refunded", fields["razorpay_payment_id"])
    assert row.razorpay_refund_id and razorpay.payment(fields["razorpay_payment_id"])["status"] == "refunded"
    calls = refund_calls(razorpay)
    assert len(calls) == 1 and calls[0].body["amount"] == row.total_paise
    assert stock_of(book) == (4, 0) and paid_mails(smtp_sink) == [] and "refunded" in smtp_sink.body(-1)
    assert len(order_payment_calls(razorpay, old_razorpay_order)) == asked_about_old
    assert order_row(old["_id"]).payment_status == "awaiting"

    tasks.reconcile_payments()
    assert len(refund_calls(razorpay)) == 1 and order_row(order["_id"]).payment_status == "refunded"
