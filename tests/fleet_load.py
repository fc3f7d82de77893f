"""Traffic for tests/test_fleet.py: shoppers spread over several gunicorn instances, tallied.

`Traffic` sends each request on its own connection with a timeout, to the next instance in turn
unless told which, and records what came back by kind: counts, statuses, answers >= 500 and
transport errors (`failures`), and answers outside the statuses the caller expected (`unexpected`).
`Journey` is one checkout attempt as a shopper would make it: place the order, pay online through
the fake Razorpay (Checkout's verify, the webhook, or both at once on different instances), and
perhaps cancel it. `Ledger` keeps every order the shop acknowledged, for the checks afterwards.
"""
import http.client
import itertools
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple
from urllib.parse import quote

from tests.factories import BookInfo, order_payload
from tests.server import request

TIMEOUT_SECONDS = 30


class Shopper(NamedTuple):
    email: str
    headers: dict


class Traffic:
    """Requests to the fleet, alternating between instances, tallied by kind."""

    def __init__(self, servers: list):
        self.servers = servers
        self._turn = itertools.count()
        self._lock = threading.Lock()
        self.counts: Counter = Counter()                   # kind -> requests sent
        self.statuses: Counter = Counter()                 # (kind, status) -> answers
        self.failures: list[tuple] = []                    # answers >= 500 and transport errors
        self.unexpected: list[tuple] = []                  # answers the caller did not expect

    def server(self, index: int | None = None):
        """The instance with this index, or the next one in turn."""
        return self.servers[(next(self._turn) if index is None else index) % len(self.servers)]

    def call(self, kind: str, method: str, path: str, payload=None, headers: dict | None = None, *,
             expect=(200,), server=None) -> tuple[int | None, dict | None]:
        """One request; (status, JSON body), or (None, None) after a transport error."""
        server = server or self.server()
        try:
            status, reply = request(server.port, method, path, payload, headers, timeout=TIMEOUT_SECONDS)
        except (OSError, http.client.HTTPException) as error:
            self._record(kind, "error", (kind, method, path, server.port, repr(error)), expect)
            return None, None
        self._record(kind, status, (kind, method, path, server.port, status, reply), expect)
        return status, reply

    def webhook(self, razorpay, event: str, payment_id: str, server=None) -> int | None:
        """Razorpay's signed webhook, delivered to one instance."""
        server = server or self.server()
        url = f"{server.base_url}/api/payments/webhook"
        try:
            status = razorpay.send_webhook(url, event, timeout=TIMEOUT_SECONDS, payment_id=payment_id)
        except OSError as error:
            self._record("webhook", "error", ("webhook", "POST", url, server.port, repr(error)), (200,))
            return None
        self._record("webhook", status, ("webhook", "POST", url, server.port, status, event), (200,))
        return status

    def _record(self, kind: str, status, detail: tuple, expect) -> None:
        with self._lock:
            self.counts[kind] += 1
            self.statuses[(kind, status)] += 1
            if status == "error" or status >= 500:
                self.failures.append(detail)
            elif status not in expect:
                self.unexpected.append(detail)

    def note_unexpected(self, detail: tuple) -> None:
        with self._lock:
            self.unexpected.append(detail)

    def status_count(self, kind: str, status) -> int:
        return self.statuses[(kind, status)]


@dataclass
class Placed:
    """An order the shop acknowledged with 201, and what the shopper did with it afterwards."""

    public_id: str
    number: str
    method: str
    total_rupees: float
    shopper: str | None                 # e-mail of the signed-in shopper, None for a guest
    razorpay_order_id: str | None = None
    payment_id: str | None = None
    paid_via: str | None = None         # verify, webhook or both
    cancelled: bool = False


@dataclass
class Ledger:
    placed: list[Placed] = field(default_factory=list)
    refusals: list[dict] = field(default_factory=list)   # the 409 answers of checkout
    replays: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, order: Placed) -> None:
        with self.lock:
            self.placed.append(order)


@dataclass
class Journey:
    """One checkout attempt, decided in advance from a seed so a run can be repeated."""

    basket: list[tuple[BookInfo, int]]
    method: str                         # cod or online
    shopper: Shopper | None
    payment: str                        # verify, webhook, both or unpaid (online only)
    cancel: bool                        # the signed-in shopper cancels it afterwards
    replay: bool                        # the same request is sent again to the other instance
    n: int

    @classmethod
    def plan(cls, rng: random.Random, n: int, books: list[BookInfo], hot: BookInfo,
             shoppers: list[Shopper]) -> "Journey":
        """The n-th attempt. Journeys that start together mostly want the same `hot` book, so their
        checkouts race for its rows. `shoppers` are the accounts of the thread that will run it, so one
        account's journeys follow one another, as one person's would. An account's unpaid online order is
        cancelled by its shopper (else the shop cancels it when the next order names the same books)."""
        chosen = rng.sample([book for book in books if book != hot], rng.choice((1, 1, 2)))
        if rng.random() < 0.6:
            chosen[0] = hot
        basket = [(book, rng.randint(1, 2)) for book in chosen]
        shopper = rng.choice(shoppers) if rng.random() < 0.6 else None
        payment = rng.choices(("verify", "webhook", "both", "unpaid"), (40, 35, 15, 10))[0]
        method = rng.choice(("cod", "online"))
        if shopper is None:
            cancel = False  # cancelling needs an account
        elif method == "online" and payment == "unpaid":
            cancel = True
        else:
            cancel = rng.random() < (0.6 if method == "online" else 0.3)
        return cls(basket=basket, method=method, shopper=shopper, payment=payment, cancel=cancel,
                   replay=rng.random() < 0.1, n=n)

    def run(self, traffic: Traffic, razorpay, ledger: Ledger) -> None:
        # Every delivery goes to its own phone and address: the shop caps open cash orders per contact.
        address = {"firstName": "Fleet", "lastName": f"Shopper {self.n}", "email": f"buyer{self.n}@example.in",
                   "phone": f"98{self.n:08d}", "address": f"{self.n} FC Road", "city": "Pune",
                   "state": "Maharashtra", "zipCode": "411001"}
        payload = order_payload(self.basket, self.method, shippingAddress=address)
        headers = {"Idempotency-Key": uuid.uuid4().hex, **(self.shopper.headers if self.shopper else {})}
        first = traffic.server()
        status, reply = traffic.call("checkout", "POST", "/api/orders", payload, headers, expect=(201, 409),
                                     server=first)
        if status == 409:
            with ledger.lock:
                ledger.refusals.append(reply)
        if status != 201:
            return
        order = reply["order"]
        placed = Placed(public_id=order["_id"], number=order["orderNumber"], method=self.method,
                        total_rupees=order["totalPrice"], shopper=self.shopper and self.shopper.email)
        ledger.add(placed)
        if self.replay:
            # A double-submit reaching the other instance: the same order comes back, nothing new is made.
            again, replayed = traffic.call("replay", "POST", "/api/orders", payload, headers, expect=(200,),
                                           server=traffic.servers[(traffic.servers.index(first) + 1)
                                                                  % len(traffic.servers)])
            if again == 200 and replayed["order"]["_id"] != placed.public_id:
                traffic.note_unexpected(("replay gave another order", placed.public_id, replayed["order"]["_id"]))
            with ledger.lock:
                ledger.replays += 1
        if self.method == "online":
            self._pay(traffic, razorpay, placed)
        if self.cancel:
            status, reply = traffic.call("cancel", "POST", f"/api/orders/{placed.public_id}/cancel",
                                         headers=self.shopper.headers)
            placed.cancelled = status == 200

    def _pay(self, traffic: Traffic, razorpay, placed: Placed) -> None:
        status, reply = traffic.call("create-order", "POST", "/api/payments/create-order",
                                     {"orderId": placed.public_id})
        if status != 200:
            return
        placed.razorpay_order_id = reply["order"]["id"]
        if self.payment == "unpaid":
            return  # the shopper closed Razorpay's window; the order keeps its copies until it expires
        fields = razorpay.pay(placed.razorpay_order_id)
        placed.payment_id, placed.paid_via = fields["razorpay_payment_id"], self.payment
        if self.payment == "verify":
            traffic.call("verify", "POST", "/api/payments/verify", fields)
        elif self.payment == "webhook":
            traffic.webhook(razorpay, "payment.captured", placed.payment_id)
        else:
            # Checkout's verify and Razorpay's webhook for one payment, on different instances at once.
            webhook = threading.Thread(target=traffic.webhook, args=(razorpay, "payment.captured", placed.payment_id),
                                       kwargs={"server": traffic.servers[1]})
            webhook.start()
            traffic.call("verify", "POST", "/api/payments/verify", fields, server=traffic.servers[0])
            webhook.join(TIMEOUT_SECONDS + 5)


def run_journeys(lanes: list[list[Journey]], traffic: Traffic, razorpay, ledger: Ledger, start: float,
                 spread_seconds: float) -> list[threading.Thread]:
    """Start a checkout thread per lane; together they make a steady stream of shoppers rather than
    one burst: the i-th journey of every lane not before start + i * spread / journeys per lane."""
    step = spread_seconds / max(len(lane) for lane in lanes)

    def work(lane: list[Journey]):
        for index, journey in enumerate(lane):
            time.sleep(max(0.0, start + index * step - time.monotonic()))
            journey.run(traffic, razorpay, ledger)

    workers = [threading.Thread(target=work, args=(lane,), name=f"checkout-{i}") for i, lane in enumerate(lanes)]
    for worker in workers:
        worker.start()
    return workers


def browse_until(deadline: float, traffic: Traffic, book_ids: list[int], words: list[str], prefixes: list[str],
                 seed: int) -> None:
    """One browsing shopper: catalogue pages, book pages, searches, suggestions and cart re-reads."""
    rng = random.Random(seed)
    sorts = ("newest", "oldest", "price-low", "price-high", "title", "bestselling")
    while time.monotonic() < deadline:
        kind = rng.choices(("browse", "detail", "search", "suggest", "cart"), (30, 25, 15, 15, 15))[0]
        if kind == "browse":
            path = f"/api/books?page={rng.randint(1, 5)}&limit=12&sortBy={rng.choice(sorts)}"
            if rng.random() < 0.3:
                path += "&category=gate"
        elif kind == "detail":
            path = f"/api/books/{rng.choice(book_ids)}"
        elif kind == "search":
            path = f"/api/books?search={quote(rng.choice(words))}&page=1&limit=12"
        elif kind == "suggest":
            path = f"/api/books/suggest?q={quote(rng.choice(prefixes))}"
        else:
            path = "/api/books/by-ids?ids=" + ",".join(map(str, rng.sample(book_ids, rng.randint(2, 8))))
        traffic.call(kind, "GET", path)
        time.sleep(rng.uniform(0, 0.02))


def hammer_login(traffic: Traffic, email: str, attempts: int, statuses: list) -> None:
    """Wrong passwords for one account, one after another, alternating instances."""
    for n in range(attempts):
        status, _reply = traffic.call("login-guess", "POST", "/api/auth/login",
                                      {"email": email, "password": f"wrong-guess-{n}"}, expect=(401, 429),
                                      server=traffic.server(n))
        statuses.append(status)
