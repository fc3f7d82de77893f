"""Cart quote benchmark: unloaded p50/p99 and requests/s of POST /api/cart/quote through gunicorn.

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/quote.py                       # SQLite, 1,000 requests
    .venv/bin/python bench/quote.py --wait-idle 600       # on a machine other people are using
    .venv/bin/python bench/quote.py --database-url postgresql://postgres@127.0.0.1/bookstore_bench_quote

It migrates a throw-away database (a SQLite file in a temporary folder, or the PostgreSQL database
named, created if missing), loads the demo catalogue (no covers) when it has no books, makes an
administrator and, through the admin API, a 10% coupon, and starts the real app with gunicorn (2 sync workers, the project's gunicorn.conf.py,
production settings). It then sends the quote the checkout asks for as the shopper types: a 3-line
cart (quantities 1, 2 and 1), the coupon, cash on delivery and a PIN, with the shopper's e-mail and
phone (so the per-customer coupon rules and the open cash-on-delivery orders are counted), one request
after another, each followed by a GET /api/health (the floor of the same server at the same moment).
It prints p50, p90, p99, the maximum and the requests/s of one client. Each request opens its own
connection, as sync workers close theirs after every answer. Exit status: 0, or 2 when the benchmark
cannot run.
"""
import argparse
import json
import secrets
import statistics
import sys
import tempfile
from pathlib import Path

from harness import (BenchError, app_env, busy_share, database_url, ensure_venv_python, figures_lines, gunicorn,
                     interleaved, load_line, request, run_flask, wait_for_idle)

COUPON = "BENCH10"
PIN = "560001"


def prepare(port: int, admin: tuple[str, str]) -> dict:
    """The coupon (made through the admin API) and the quote's body over three books of the catalogue."""
    status, _, reply = request(port, "POST", "/api/auth/login", {"email": admin[0], "password": admin[1]})
    if status != 200:
        raise BenchError(f"admin login answered {status}: {reply[:300]!r}")
    token = json.loads(reply)["token"]
    status, _, reply = request(port, "POST", "/api/admin/coupons", {"code": COUPON, "kind": "percent", "value": 10},
                               headers={"Authorization": f"Bearer {token}"})
    if status not in (201, 409):  # 409: the PostgreSQL database already has it from an earlier run
        raise BenchError(f"creating the coupon answered {status}: {reply[:300]!r}")
    status, _, reply = request(port, "GET", "/api/books?limit=3&sortBy=newest")
    books = json.loads(reply).get("books", []) if status == 200 else []
    if len(books) < 3:
        raise BenchError("the catalogue has fewer than 3 books")
    return {"orderItems": [{"book": book["_id"], "quantity": quantity} for book, quantity in zip(books, (1, 2, 1))],
            "couponCode": COUPON, "paymentMethod": "cod", "zipCode": PIN,
            "email": "bench.shopper@example.in", "phone": "9876543210"}


def check(reply: bytes) -> None:
    """The quote must be the one meant: the coupon applied and cash on delivery offered for the PIN."""
    body = json.loads(reply)
    if not body.get("coupon", {}).get("applied") or "cashOnDelivery" not in body:
        raise BenchError(f"unexpected quote: {reply[:500]!r}")


def run(args) -> None:
    admin = ("bench.admin@example.in", secrets.token_urlsafe(16))
    with tempfile.TemporaryDirectory(prefix="bench-quote-") as scratch:
        folder = Path(scratch)
        env = app_env(database_url(args.database_url, folder), folder)
        run_flask(env, "db", "upgrade")
        run_flask(env, "seed-demo", "--if-empty", "--no-covers")
        run_flask(env, "create-admin", "--email", admin[0], "--password", admin[1])
        with gunicorn(env, args.workers, folder / "gunicorn.log") as port:
            body = prepare(port, admin)
            idle_share = wait_for_idle(args.wait_idle) if args.wait_idle else busy_share()
            status, cold_ms, reply = request(port, "POST", "/api/cart/quote", body)
            if status != 200:
                raise BenchError(f"/api/cart/quote answered {status}: {reply[:500]!r}")
            check(reply)
            for _ in range(args.warmup):
                request(port, "POST", "/api/cart/quote", body)
            timings, floor, failures = interleaved(
                port, lambda _: request(port, "POST", "/api/cart/quote", body)[:2], range(args.requests))
    kind = "PostgreSQL" if args.database_url else "SQLite"
    print(f"POST /api/cart/quote (3 lines, coupon {COUPON}, cash on delivery to {PIN}): gunicorn {args.workers} sync "
          f"workers, {kind}, demo catalogue, {args.requests:,} sequential requests (after {args.warmup} warm-up)")
    print(load_line(idle_share))
    print(f"  first answer: {cold_ms:.1f} ms")
    print("\n".join(figures_lines(timings, floor, failures)))
    print(f"  one client: {1000 / statistics.fmean(timings):.0f} requests/s")


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="timed requests (default 1000)")
    parser.add_argument("--warmup", type=int, default=100, help="untimed requests first (default 100)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers (default 2)")
    parser.add_argument("--database-url", help="a PostgreSQL URL instead of a temporary SQLite file")
    parser.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                        help="on a shared machine, wait up to this long for the CPUs to be mostly idle")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    ensure_venv_python()
    args = parse_args(argv)
    try:
        run(args)
    except BenchError as error:
        print(f"bench/quote.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
