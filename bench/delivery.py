"""Delivery-to-PIN benchmark: unloaded p50/p99 of GET /api/delivery/{pin} through gunicorn.

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/delivery.py                    # SQLite, 2,000 requests
    .venv/bin/python bench/delivery.py --wait-idle 600    # on a machine other people are using
    .venv/bin/python bench/delivery.py --database-url postgresql://postgres@127.0.0.1/bookstore_bench_delivery

It migrates a throw-away database (a SQLite file in a temporary folder, or the PostgreSQL database
named, created if missing), starts the real app with gunicorn (2 sync workers, the project's
gunicorn.conf.py, production settings), times the first answer (a worker reading the PIN
directory), warms both workers up, then sends the requests one after another over random real PINs
from the directory (seeded, so runs compare), each followed by a GET /api/health (the floor of the
same server on the same machine at the same moment; one database query too), and prints p50, p90,
p99 and the maximum against the target: p99 at most 5 ms unloaded. Each request opens its own
connection, as sync workers close theirs after every answer, so the figures include a local TCP
connect. Exit status: 0, or 1 with --strict when the target is missed, 2 when the benchmark cannot
run.
"""
import argparse
import random
import sys
import tempfile
from pathlib import Path

from harness import (ROOT, BenchError, app_env, busy_share, database_url, ensure_venv_python, figures_lines, get,
                     gunicorn, interleaved, load_line, percentile, run_flask, wait_for_idle)

TARGET_P99_MS = 5.0


def run(args) -> bool:
    sys.path.insert(0, str(ROOT))
    from bookstore.services import pin_directory
    rng = random.Random(args.seed)
    pins = rng.choices(pin_directory.pins(), k=args.requests)
    with tempfile.TemporaryDirectory(prefix="bench-delivery-") as scratch:
        folder = Path(scratch)
        env = app_env(database_url(args.database_url, folder), folder)
        run_flask(env, "db", "upgrade")
        with gunicorn(env, args.workers, folder / "gunicorn.log") as port:
            idle_share = wait_for_idle(args.wait_idle) if args.wait_idle else busy_share()
            status, cold_ms = get(port, "/api/delivery/560001")
            if status != 200:
                raise BenchError(f"/api/delivery/560001 answered {status}")
            for pin in rng.choices(pins, k=args.warmup):
                get(port, f"/api/delivery/{pin}")
            timings, floor, failures = interleaved(port, lambda pin: get(port, f"/api/delivery/{pin}"), pins)
    p99 = percentile(timings, 0.99)
    kind = "PostgreSQL" if args.database_url else "SQLite"
    print(f"GET /api/delivery/{{pin}}: gunicorn {args.workers} sync workers, {kind}, {args.requests:,} sequential "
          f"requests over random real PINs (after {args.warmup} warm-up requests)")
    print(load_line(idle_share))
    print(f"  first answer (a worker reading the directory): {cold_ms:.0f} ms")
    print("\n".join(figures_lines(timings, floor, failures)))
    ok = p99 <= TARGET_P99_MS and failures == 0
    print(f"  {'PASS' if ok else 'FAIL'}: p99 {p99:.2f} ms (target at most {TARGET_P99_MS:g} ms unloaded)")
    return ok


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="timed requests (default 2000)")
    parser.add_argument("--warmup", type=int, default=200, help="untimed requests first (default 200)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers (default 2)")
    parser.add_argument("--seed", type=int, default=14, help="random seed of the PINs asked for")
    parser.add_argument("--database-url", help="a PostgreSQL URL instead of a temporary SQLite file")
    parser.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                        help="on a shared machine, wait up to this long for the CPUs to be mostly idle")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the target is missed")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    ensure_venv_python()
    args = parse_args(argv)
    try:
        ok = run(args)
    except BenchError as error:
        print(f"bench/delivery.py: {error}", file=sys.stderr)
        return 2
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
