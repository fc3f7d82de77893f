"""The scheduled jobs, run as the consumer runs them (inline here): payment reconciliation and pruning.
Each is idempotent: a second run changes nothing."""
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import AccountToken, RevokedToken, utcnow
from tests.api.test_payments import create_razorpay_order, online_order, paid_mails
from tests.helpers import order_row, set_order, stock_of


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
