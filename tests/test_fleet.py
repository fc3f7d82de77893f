"""A fleet of two shops (issue 11's proof): two gunicorn instances, each with its own embedded job
consumer, share one PostgreSQL database, one Redis queue for jobs, one Redis for rate limits and one
S3 bucket for covers, and send their mail to one SMTP server and their payments to one (fake) Razorpay.

A minute of mixed traffic goes to both instances in turn: browsing, searches, suggestions, cart
re-reads, 200 checkouts of books with a few copies each, online payments (Checkout's verify, the
webhook, or both at once on different instances), cancels of paid and unpaid orders, and a password
guesser. Afterwards nothing may have broken, been sold twice, mailed twice or refunded twice, and
the per-e-mail login limit must have counted the guesses of both instances together.

PostgreSQL only (TEST_DATABASE_URL): a fleet shares a server database, not a SQLite file.
Redis must answer on 127.0.0.1:6379; databases 14 (jobs) and 15 (limits) are emptied before and after.
"""
import json
import logging
import os
import random
import re
import secrets
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import requests
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Book, Order, OrderLine, OrderStatusChange, OutboxMail
from tests.conftest import RAZORPAY_KEYS
from tests.fakes.s3_server import CREDENTIALS, REGION, LocalS3
from tests.fakes.uploads import cover
from tests.fleet_load import (BookInfo, Journey, Ledger, Shopper, Traffic, browse_until, hammer_login,
                              run_journeys)
from tests.jobs.consumer import wait_until
from tests.server import Gunicorn

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"),
                                reason="a fleet shares a PostgreSQL database: set TEST_DATABASE_URL")

JOBS_URL = "redis://127.0.0.1:6379/14"
LIMITS_URL = "redis://127.0.0.1:6379/15"
BUCKET = "fleet-covers"
LOAD_SECONDS = 60
CHECKOUTS = 200
CHECKOUT_THREADS = 4
SHIPPING_PAISE = 4000
SUBJECTS = ["Physics", "Chemistry", "Mathematics", "Biology", "History", "Geography", "Economics", "Polity"]
KINDS = ["Handbook", "Question Bank", "Guide", "Companion"]
AUTHORS = ["R. Sharma", "A. Gupta", "S. Iyer", "M. Khan", "P. Nair"]
SEARCH_WORDS = ["physics", "chemistry guide", "history", "sharma", "question bank", "polity handbook", "nair"]
PREFIXES = ["phy", "chem", "sha", "gui", "hist", "econ", "iye"]
GUESSED_EMAIL = "guessed@example.in"
MESSAGE_ID = re.compile(r"\.outbox(\d+)@bookstore>$")
ERROR_LINE = re.compile(r'"level": "(ERROR|CRITICAL)"|\[(ERROR|CRITICAL)\]| (ERROR|CRITICAL) ')


@pytest.fixture
def shared_redis():
    """The fleet's job queue and rate-limit counts, empty before and after."""
    clients = [redis.Redis.from_url(url) for url in (JOBS_URL, LIMITS_URL)]
    for client in clients:
        client.flushdb()
    yield
    for client in clients:
        client.flushdb()
        client.close()


@pytest.fixture(autouse=True)
def quiet_fakes():
    """The SMTP sink and the S3 fake log every exchange at INFO; -s should show the summary, not them."""
    loggers = [logging.getLogger(name) for name in ("mail.log", "werkzeug")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    yield
    for logger, level in zip(loggers, levels):
        logger.setLevel(level)


@pytest.fixture
def s3():
    """The S3 fake with a bucket whose covers anyone may read, as the README asks of a real one."""
    with LocalS3(BUCKET) as server:
        server.client.put_bucket_policy(Bucket=BUCKET, Policy=json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
             "Resource": f"arn:aws:s3:::{BUCKET}/covers/*"}]}))
        yield server


@pytest.fixture
def fleet(app, database_url, shared_redis, s3, smtp_sink, razorpay, tmp_path):
    """Two gunicorn instances (2 gthread workers x 4 threads, each with its embedded job consumer)."""
    settings = {
        # One pair of secrets for the fleet: a token from one instance is good on the other.
        "SECRET_KEY": secrets.token_hex(32), "JWT_SECRET_KEY": secrets.token_hex(32),
        "JOBS_URL": JOBS_URL, "JOBS_IN_WEB": "true",
        "RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": LIMITS_URL,
        # All traffic comes from 127.0.0.1: the per-IP limits would otherwise stop the shoppers.
        "LOGIN_LIMIT_PER_IP": "100000 per minute", "FORM_LIMIT_PER_IP": "100000 per minute",
        "ACCOUNT_MAIL_LIMIT": "100000 per hour", "LOGIN_FAILURES_PER_EMAIL": "10 per 15 minutes",
        "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": str(smtp_sink.port), "MAIL_RETRY_SECONDS": "2",
        "PUBLIC_URL": "https://books.example.in",
        "RAZORPAY_BASE_URL": razorpay.base_url, "RAZORPAY_TIMEOUT_SECONDS": "5", **RAZORPAY_KEYS,
        "S3_BUCKET": BUCKET, "S3_ENDPOINT_URL": s3.endpoint_url, "S3_REGION": REGION, "S3_PUBLIC_URL": "",
        **CREDENTIALS, "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
    }
    servers = [Gunicorn(database_url, tmp_path / name, workers=2, threads=4) for name in ("a", "b")]
    for server in servers:
        server.env.update(settings)
    try:
        with ThreadPoolExecutor(len(servers)) as pool:
            list(pool.map(lambda server: server.start(timeout=120), servers))
        yield servers
    finally:
        for server in servers:
            server.stop()


def make_books(factories) -> tuple[list[BookInfo], list[int]]:
    """20 books of 3-6 copies for the checkouts, 40 with plenty for browsing; (scarce, every id)."""
    rng = random.Random(11)
    scarce, every = [], []
    for n in range(60):
        price = rng.choice((19900, 24950, 39900, 45000, 59900, 79900))
        discounted = price - rng.choice((2000, 5050)) if n % 3 == 0 else None
        book = factories.book(title=f"{SUBJECTS[n % len(SUBJECTS)]} {KINDS[n % len(KINDS)]} {n}",
                              author=AUTHORS[n % len(AUTHORS)], price_paise=price, discounted_price_paise=discounted,
                              stock=rng.randint(3, 6) if n < 20 else 1000, category="gate" if n % 2 else "ias")
        every.append(book.id)
        if n < 20:
            scarce.append(BookInfo(book.id, book.title, book.sale_price_paise))
    return scarce, every


def register_shoppers(traffic: Traffic, count: int) -> list[Shopper]:
    """Accounts made through the API, alternately on each instance (each gets a verification mail)."""
    shoppers = []
    for n in range(count):
        email = f"shopper{n}@example.in"
        status, reply = traffic.call("register", "POST", "/api/auth/register",
                                     {"firstName": "Fleet", "lastName": f"Shopper {n}", "email": email,
                                      "password": "secret-pass-1", "phone": "9876543210"}, expect=(201,))
        assert status == 201, reply
        shoppers.append(Shopper(email, {"Authorization": f"Bearer {reply['token']}"}))
    return shoppers


def upload_cover_on_one_and_read_it_on_the_other(traffic: Traffic, factories, s3) -> str:
    """An administrator adds a book with a cover on instance A; instance B shows it from the bucket."""
    factories.user(email="admin@example.in", password="admin-pass-1", role="admin")
    status, reply = traffic.call("login", "POST", "/api/auth/login",
                                 {"email": "admin@example.in", "password": "admin-pass-1"}, server=traffic.server(0))
    assert status == 200, reply
    form = {"title": "Indian Polity Fleet Edition", "author": "M. Laxmikanth", "description": "UPSC prelims.",
            "price": 699, "category": "IAS", "weight": "1.1 kg", "stock": 1000, "imageUrl": cover()}
    status, reply = traffic.call("admin-book", "POST", "/api/books", form,
                                 {"Authorization": f"Bearer {reply['token']}"}, expect=(201,), server=traffic.server(0))
    assert status == 201, reply
    status, shown = traffic.call("detail", "GET", f"/api/books/{reply['book']['_id']}", server=traffic.server(1))
    assert status == 200, shown
    url = shown["book"]["imageUrl"]
    assert url == reply["book"]["imageUrl"] and url.startswith(f"{s3.endpoint_url}/{BUCKET}/covers/"), url
    assert url[len(f"{s3.endpoint_url}/{BUCKET}/"):] in s3.keys()
    fetched = requests.get(url, timeout=10)
    assert fetched.status_code == 200 and fetched.content[:4] == b"RIFF"
    return reply["book"]["_id"]


def unsent_mails() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(OutboxMail).where(OutboxMail.sent_at.is_(None)))


def pending_refunds(ledger: Ledger) -> list[str]:
    """Cancelled paid orders whose refund is not recorded yet."""
    db.session.expire_all()
    paid_and_cancelled = [p.public_id for p in ledger.placed if p.cancelled and p.payment_id]
    if not paid_and_cancelled:
        return []
    return list(db.session.scalars(select(Order.public_id).where(
        Order.public_id.in_(paid_and_cancelled), Order.payment_status != "refunded")))


def check_orders(ledger: Ledger, initial_stock: dict[int, int], prices: dict[int, int]) -> None:
    """Every order whole, priced from the books, in the state the shopper left it; stock in step with it."""
    db.session.expire_all()
    orders = db.session.scalars(select(Order).order_by(Order.id)).all()
    by_id = {placed.public_id: placed for placed in ledger.placed}
    assert {order.public_id for order in orders} == set(by_id), "orders stored are not the orders acknowledged"
    problems = []
    for order in orders:
        placed = by_id[order.public_id]
        where = f"order {order.order_number} ({placed.method}, paid via {placed.paid_via}, " \
                f"cancelled {placed.cancelled})"
        if not order.lines:
            problems.append(f"{where}: no lines")
        if order.items_paise != sum(line.unit_price_paise * line.quantity for line in order.lines):
            problems.append(f"{where}: items {order.items_paise} are not the sum of the lines")
        if (order.shipping_paise, order.tax_paise) != (SHIPPING_PAISE, 0) \
                or order.total_paise != order.items_paise + SHIPPING_PAISE or order.total_paise != round(
                    placed.total_rupees * 100):
            problems.append(f"{where}: total {order.total_paise} does not add up")
        if any(line.unit_price_paise != prices[line.book_id] for line in order.lines):
            problems.append(f"{where}: a line is not priced at its book's price")
        if not (order.order_number or "").startswith(f"BK-{order.created_at.year}-") \
                or order.order_number != placed.number:
            problems.append(f"{where}: order number {order.order_number}, answered {placed.number}")
        expected_history = ["pending", "cancelled"] if placed.cancelled else ["pending"]
        if [change.status for change in order.history] != expected_history:
            problems.append(f"{where}: history {[change.status for change in order.history]}")
        if (order.status, order.stock_released) != (("cancelled", True) if placed.cancelled else ("pending", False)):
            problems.append(f"{where}: status {order.status}, stock released {order.stock_released}")
        expected_payment = {"cod": "pending"}.get(placed.method) or (
            "awaiting" if placed.payment_id is None else "refunded" if placed.cancelled else "paid")
        if order.payment_status != expected_payment or order.razorpay_payment_id != placed.payment_id:
            problems.append(f"{where}: payment {order.payment_status} {order.razorpay_payment_id}, "
                            f"expected {expected_payment} {placed.payment_id}")
        if order.razorpay_order_id != placed.razorpay_order_id:
            problems.append(f"{where}: Razorpay order {order.razorpay_order_id}, expected {placed.razorpay_order_id}")
    assert not problems, "\n".join(problems[:20])
    assert len({order.order_number for order in orders}) == len(orders), "two orders share a number"
    assert db.session.scalar(select(func.count()).select_from(OrderStatusChange)) == \
        len(orders) + sum(placed.cancelled for placed in ledger.placed)

    # No book oversold: the copies gone are exactly the copies on orders that still hold them.
    held = dict(db.session.execute(
        select(OrderLine.book_id, func.sum(OrderLine.quantity)).join(Order)
        .where(Order.stock_released.is_(False)).group_by(OrderLine.book_id)).all())
    for book in db.session.scalars(select(Book)):
        assert book.stock >= 0, f"book {book.id} has stock {book.stock}"
        on_orders = held.get(book.id, 0)
        assert initial_stock[book.id] == book.stock + on_orders, \
            f"book {book.id}: started with {initial_stock[book.id]}, {book.stock} left, {on_orders} on orders"
        assert book.copies_sold == on_orders, f"book {book.id}: copies_sold {book.copies_sold}"


def check_mail(ledger: Ledger, smtp_sink, shoppers: int) -> int:
    """Every outbox row was sent once and only once, and each order has exactly the mails it should."""
    db.session.expire_all()
    rows = db.session.scalars(select(OutboxMail).order_by(OutboxMail.id)).all()
    assert all(row.sent_at is not None for row in rows)
    messages = list(smtp_sink.messages)
    message_ids = [str(message["Message-ID"]) for message in messages]
    outbox_ids = [int(match.group(1)) for match in map(MESSAGE_ID.search, message_ids) if match]
    assert len(outbox_ids) == len(message_ids), f"Message-IDs not made from the outbox id: {message_ids[:5]}"
    duplicates = [outbox_id for outbox_id, n in Counter(outbox_ids).items() if n > 1]
    assert not duplicates, f"outbox rows sent more than once: {duplicates[:20]}"
    assert len(set(message_ids)) == len(message_ids)
    assert sorted(outbox_ids) == [row.id for row in rows], \
        f"{len(rows)} outbox rows, {len(messages)} messages received"

    subjects = Counter(row.subject for row in rows)
    expected = Counter()
    for placed in ledger.placed:
        if placed.method == "cod":
            expected[f"Order {placed.number} placed"] += 1
        elif placed.payment_id:
            expected[f"Order {placed.number} confirmed — payment received"] += 1
        if placed.cancelled:
            expected[f"Order {placed.number} is now cancelled"] += 1
    order_mails = Counter({subject: n for subject, n in subjects.items() if subject.startswith("Order ")})
    assert order_mails == expected, (order_mails - expected, expected - order_mails)
    assert sum(subjects.values()) - sum(order_mails.values()) == shoppers, "one verification mail per account"
    return len(rows)


def check_refunds(ledger: Ledger, razorpay) -> int:
    """One refund per payment of a cancelled order, for the whole amount; no other payment refunded."""
    db.session.expire_all()
    orders = {order.public_id: order for order in db.session.scalars(select(Order))}
    refunds = Counter(refund["payment_id"] for refund in razorpay.refunds.values())
    cancelled_paid = {placed.payment_id: orders[placed.public_id] for placed in ledger.placed
                      if placed.cancelled and placed.payment_id}
    assert set(refunds) == set(cancelled_paid), (set(refunds) ^ set(cancelled_paid))
    assert all(n == 1 for n in refunds.values()), refunds
    for payment_id, order in cancelled_paid.items():
        refund = razorpay.refund(order.razorpay_refund_id)
        assert (refund["payment_id"], refund["amount"]) == (payment_id, order.total_paise)
        assert razorpay.payment(payment_id)["status"] == "refunded"
    for placed in ledger.placed:
        if placed.payment_id and not placed.cancelled:
            assert razorpay.payment(placed.payment_id)["status"] == "captured"
    return len(cancelled_paid)


def logged_errors(server: Gunicorn) -> str:
    """Lines of the instance's log (app, gunicorn and job consumer) at level ERROR or above."""
    return "\n".join(line[:2000] for line in server.log().splitlines()
                     if ERROR_LINE.search(line) or "Traceback" in line)[:6000]


def eventually(condition, timeout: float, explain) -> None:
    """wait_until, with the state at the end (explain()) in the failure rather than the state at the start."""
    try:
        wait_until(condition, timeout)
    except AssertionError:
        raise AssertionError(f"not within {timeout} s: {explain()}") from None


def jobs_run(server: Gunicorn, name: str) -> int:
    """How many times this instance's consumer started the job (huey logs each execution)."""
    return len(re.findall(rf"Executing bookstore\.jobs\.tasks\.{name}\b", server.log()))


def test_two_instances_share_one_shop_without_overselling_or_sending_twice(fleet, factories, razorpay, smtp_sink,
                                                                          s3):
    """The rule: instances of the shop are interchangeable. Whichever instance (and whichever job
    consumer) handles a request or a job, no request fails, no copy is sold twice, every order stays
    whole, every mail goes out exactly once, every cancelled payment is refunded exactly once, and a
    rate limit counts the requests of all instances together."""
    began = time.monotonic()
    scarce, book_ids = make_books(factories)
    factories.user(email=GUESSED_EMAIL, password="the-real-password")
    traffic = Traffic(fleet)
    shoppers = register_shoppers(traffic, 2 * CHECKOUT_THREADS)
    cover_book = upload_cover_on_one_and_read_it_on_the_other(traffic, factories, s3)
    book_ids.append(int(cover_book))
    db.session.expire_all()
    books = db.session.scalars(select(Book)).all()
    initial_stock = {book.id: book.stock for book in books}
    prices = {book.id: book.sale_price_paise for book in books}
    db.session.remove()

    rng = random.Random(2026)
    # Journey n runs on thread n % 4, at the same moment as the other threads' journeys of its round,
    # which mostly want the same book.
    hot = lambda n: scarce[n // CHECKOUT_THREADS % len(scarce)]  # noqa: E731
    lanes = [[Journey.plan(rng, n, scarce, hot(n), shoppers[lane::CHECKOUT_THREADS])
              for n in range(lane, CHECKOUTS, CHECKOUT_THREADS)] for lane in range(CHECKOUT_THREADS)]
    ledger, guesses = Ledger(), []
    start = time.monotonic()
    deadline = start + LOAD_SECONDS
    workers = run_journeys(lanes, traffic, razorpay, ledger, start, spread_seconds=LOAD_SECONDS - 12)
    workers += [threading.Thread(target=browse_until, args=(deadline, traffic, book_ids, SEARCH_WORDS, PREFIXES, seed),
                                 name=f"browse-{seed}") for seed in range(3)]
    workers.append(threading.Thread(target=lambda: (time.sleep(5), hammer_login(traffic, GUESSED_EMAIL, 20, guesses)),
                                    name="guesser"))
    for worker in workers[CHECKOUT_THREADS:]:
        worker.start()
    for worker in workers:
        worker.join(timeout=LOAD_SECONDS + 60)
    assert not [worker.name for worker in workers if worker.is_alive()], "a shopper never finished"
    load_seconds = time.monotonic() - start

    def server_logs():
        return "\n".join(f"--- {server.log_path} ---\n{logged_errors(server) or server.log()[-3000:]}"
                         for server in fleet)

    assert not traffic.failures, f"{traffic.failures[:5]}\n{server_logs()}"
    assert not traffic.unexpected, f"{traffic.unexpected[:5]}\n{server_logs()}"
    assert all("bookId" in reply and "available" in reply for reply in ledger.refusals), ledger.refusals[:3]
    # Ten wrong passwords are answered, whichever instance got them; then the account is shut to guessing.
    assert guesses == [401] * 10 + [429] * 10, guesses

    eventually(lambda: not pending_refunds(ledger), 60,
               lambda: f"refunds still pending: {pending_refunds(ledger)}\n{server_logs()}")
    eventually(lambda: unsent_mails() == 0, 60, lambda: f"{unsent_mails()} mails unsent\n{server_logs()}")
    time.sleep(2)  # room for a duplicate to show up
    refunded = check_refunds(ledger, razorpay)
    mails = check_mail(ledger, smtp_sink, len(shoppers))
    check_orders(ledger, initial_stock, prices)
    for server in fleet:
        assert not server.errors_logged(), logged_errors(server)
        assert not logged_errors(server), logged_errors(server)

    placed = ledger.placed
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(traffic.counts.items()))
    print(f"\nfleet: 2 instances x 2 workers x 4 threads, {load_seconds:.0f} s of load, "
          f"{sum(traffic.counts.values())} requests ({kinds}); "
          f"{len(placed)} orders placed of {CHECKOUTS} checkouts ({traffic.status_count('checkout', 409)} x 409), "
          f"cod {sum(p.method == 'cod' for p in placed)}, online {sum(p.method == 'online' for p in placed)} "
          f"(paid {sum(bool(p.payment_id) for p in placed)}: "
          f"{', '.join(f'{k} {n}' for k, n in sorted(Counter(p.paid_via for p in placed if p.paid_via).items()))}), "
          f"{ledger.replays} replays, cancelled {sum(p.cancelled for p in placed)} ({refunded} refunded), "
          f"{mails} mails sent once each (consumers sent {'/'.join(str(jobs_run(s, 'send_mail')) for s in fleet)}), "
          f"logins {guesses.count(401)}x401 then {guesses.count(429)}x429; "
          f"{time.monotonic() - began:.0f} s from set-up to the last check")
