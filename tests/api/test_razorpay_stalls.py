"""A slow Razorpay holds no shopper long (product §6): create-order gives up within a few seconds, and
after RAZORPAY_BREAKER_TIMEOUTS timeouts in a row the process stops calling Razorpay for a cool-down
(503 with Retry-After at once), then lets one call try it again. Create-order and verify are limited
per IP. Driven through the real SDK against the fake Razorpay."""
import time
import uuid

import pytest

from bookstore.config import SETTINGS
from bookstore.extensions import db
from tests.conftest import RAZORPAY_KEYS, _in_context
from tests.factories import ADDRESS, Factories, placed
from tests.helpers import assert_refused, order_row

TIMED_OUT = "The payment service did not answer in time. Nothing was charged; please try again."
PAUSED = ("The payment service is not answering at the moment, so online payment is paused for a short while. "
          "Nothing was charged; please try again in a minute or choose cash on delivery.")


@pytest.fixture
def settings(razorpay) -> dict:
    """Online payment on the fake Razorpay; a test adds its own timeouts and limits."""
    return {"RAZORPAY_BASE_URL": razorpay.base_url, **RAZORPAY_KEYS}


@pytest.fixture
def shop(app_pool, settings):
    """Builds the app with the test's settings on an empty database; yields its test client."""
    contexts = []

    def build(**extra):
        context = _in_context(app_pool.app(**settings, **extra))
        contexts.append(context)
        return next(context).test_client()
    yield build
    for context in contexts:
        next(context, None)


def online_orders(client, count: int) -> list[str]:
    """`count` online orders of different shoppers, awaiting payment; their public ids."""
    book = Factories().book(title="NEET Biology", price_paise=50000, stock=50)
    ids = []
    for n in range(count):
        address = {**ADDRESS, "email": f"payer{n}@example.in", "phone": f"98765432{n:02d}"}
        ids.append(placed(client, [(book, 1)], "online", shippingAddress=address)["_id"])
    return ids


def create_order(client, order_id, ip="10.0.0.1"):
    return client.post("/api/payments/create-order", json={"orderId": order_id}, environ_base={"REMOTE_ADDR": ip})


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_create_order_gives_up_on_razorpay_within_a_few_seconds(shop, razorpay):
    """Creating a Razorpay order waits RAZORPAY_ORDER_TIMEOUT_SECONDS (4 s by default), not the 10 s other
    Razorpay calls may take: the shopper is answered 503 and nothing changes."""
    client = shop(RAZORPAY_TIMEOUT_SECONDS="10")
    [order] = online_orders(client, 1)
    razorpay.delay_next(15)
    response, elapsed = timed(lambda: create_order(client, order))
    assert_refused(response, 503, TIMED_OUT)
    assert 3.5 < elapsed < 7, elapsed
    assert order_row(order).razorpay_order_id is None


def test_after_three_timeouts_in_a_row_razorpay_is_not_called_for_the_cool_down(shop, razorpay):
    """Three create-order timeouts in a row open the circuit: the next calls are 503 at once with Retry-After
    and never reach Razorpay; after the cool-down one call tries Razorpay again, and its answer closes it."""
    client = shop(RAZORPAY_ORDER_TIMEOUT_SECONDS="0.5", RAZORPAY_BREAKER_SECONDS="2")
    orders = online_orders(client, 5)
    razorpay.delay_all(5)
    for order in orders[:3]:
        assert_refused(create_order(client, order), 503, TIMED_OUT)
    assert len(razorpay.calls("POST", "/v1/orders")) == 3

    response, elapsed = timed(lambda: create_order(client, orders[3]))
    assert_refused(response, 503, PAUSED)
    # At least the cool-down left: Flask-Limiter raises a limited route's Retry-After to its window's end.
    assert elapsed < 0.4 and int(response.headers["Retry-After"]) >= 1
    assert len(razorpay.calls("POST", "/v1/orders")) == 3
    assert order_row(orders[3]).razorpay_order_id is None

    razorpay.delay_all(0)
    time.sleep(2.1)
    tried = create_order(client, orders[3])
    assert tried.status_code == 200, tried.get_json()
    assert create_order(client, orders[4]).status_code == 200
    assert len(razorpay.calls("POST", "/v1/orders")) == 5
    assert order_row(orders[3]).razorpay_order_id and order_row(orders[4]).razorpay_order_id


def test_a_trial_call_that_times_out_opens_the_circuit_again(shop, razorpay):
    """After the cool-down a single call goes to Razorpay; while it waits others are refused at once, and
    when it times out the circuit is open for another cool-down."""
    client = shop(RAZORPAY_ORDER_TIMEOUT_SECONDS="0.5", RAZORPAY_BREAKER_SECONDS="1", RAZORPAY_BREAKER_TIMEOUTS="2")
    orders = online_orders(client, 3)
    razorpay.delay_all(5)
    for order in orders[:2]:
        assert_refused(create_order(client, order), 503, TIMED_OUT)
    time.sleep(1.1)
    assert_refused(create_order(client, orders[2]), 503, TIMED_OUT)  # the trial
    assert len(razorpay.calls("POST", "/v1/orders")) == 3
    response, elapsed = timed(lambda: create_order(client, orders[0]))
    assert_refused(response, 503, PAUSED)
    assert elapsed < 0.4 and int(response.headers["Retry-After"]) >= 1
    assert len(razorpay.calls("POST", "/v1/orders")) == 3


def test_razorpay_answering_resets_the_count(shop, razorpay):
    """Timeouts count only in a row: an answer in between (even an error) starts the count again, and
    two in a row (the threshold here) open the circuit."""
    client = shop(RAZORPAY_ORDER_TIMEOUT_SECONDS="0.5", RAZORPAY_BREAKER_TIMEOUTS="2")
    orders = online_orders(client, 4)
    razorpay.delay_next(5)
    assert_refused(create_order(client, orders[0]), 503, TIMED_OUT)
    razorpay.fail_next(500)
    assert create_order(client, orders[1]).status_code == 502
    razorpay.delay_next(5)
    assert_refused(create_order(client, orders[1]), 503, TIMED_OUT)
    assert create_order(client, orders[2]).status_code == 200
    razorpay.delay_next(5, times=2)
    assert_refused(create_order(client, orders[3]), 503, TIMED_OUT)
    assert_refused(create_order(client, orders[0]), 503, TIMED_OUT)
    assert_refused(create_order(client, orders[0]), 503, PAUSED)
    assert len(razorpay.calls("POST", "/v1/orders")) == 6


def test_create_order_is_limited_per_ip(shop, razorpay):
    """PAYMENT_LIMIT_PER_IP (10 a minute by default): the 11th create-order from one address is 429 with
    Retry-After, and reaches neither the database nor Razorpay; another address is served."""
    client = shop(PAYMENT_LIMIT_PER_IP=SETTINGS["PAYMENT_LIMIT_PER_IP"][0], RATELIMIT_KEY_PREFIX=uuid.uuid4().hex)
    first, second = online_orders(client, 2)
    assert all(create_order(client, first).status_code == 200 for _ in range(10))
    refused = create_order(client, second)
    assert_refused(refused, 429)
    assert int(refused.headers["Retry-After"]) > 0
    assert order_row(second).razorpay_order_id is None and len(razorpay.calls("POST", "/v1/orders")) == 1
    assert create_order(client, second, ip="10.0.0.2").status_code == 200


def test_verify_is_limited_per_ip(shop, razorpay):
    """Verify has its own PAYMENT_LIMIT_PER_IP count: ten tries a minute from one address, then 429."""
    client = shop(PAYMENT_LIMIT_PER_IP=SETTINGS["PAYMENT_LIMIT_PER_IP"][0], RATELIMIT_KEY_PREFIX=uuid.uuid4().hex)
    [order] = online_orders(client, 1)
    razorpay_order = create_order(client, order).get_json()["order"]["id"]
    fields = razorpay.pay(razorpay_order)

    def verify(signature, ip="10.0.0.1"):
        return client.post("/api/payments/verify", json={**fields, "razorpay_signature": signature},
                           environ_base={"REMOTE_ADDR": ip})
    assert all(verify("0" * 64).status_code == 400 for _ in range(10))
    assert_refused(verify(fields["razorpay_signature"]), 429)
    assert order_row(order).payment_status == "awaiting"
    assert verify(fields["razorpay_signature"], ip="10.0.0.2").status_code == 200
    db.session.expire_all()
    assert order_row(order).payment_status == "paid"
