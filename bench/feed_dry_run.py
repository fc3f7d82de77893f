"""Catalogue feed dry run benchmark: rows per second and peak memory of `DryRun` over a 100,000-row CSV.

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/feed_dry_run.py                  # SQLite, 100,000 rows against 5,000 books
    .venv/bin/python bench/feed_dry_run.py --rows 20000 --books 2000
    .venv/bin/python bench/feed_dry_run.py --database-url postgresql://postgres@127.0.0.1/bookstore_feed_bench
    .venv/bin/python bench/feed_dry_run.py --tracemalloc    # also Python's peak allocation (runs about 2x slower)

It migrates a throw-away database, seeds `--books` demo books (no covers), and writes a CSV in the shop's
columns whose first rows are the catalogue's books (every fourth with a new price, so some are updated and
the rest unchanged), then new books (created), with one bad price in every 100 rows (refused). The dry run
reads it in-process, as `flask import-books --dry-run` does, and the script prints the counts, rows per
second, the process's peak resident memory before and after (ru_maxrss) and, with --tracemalloc, the peak
of Python allocations during the run: what a reader that held every row would make grow with the file.
"""
import argparse
import csv
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ROOT, app_env, database_url, ensure_venv_python, run_flask  # noqa: E402

HEADER = ["ISBN", "Title", "Author", "Description", "Price (INR)", "Discounted price (INR)", "Category", "Stock",
          "Publisher", "Publication date", "Language", "Pages", "Format", "Weight", "Medium", "Edition year",
          "Exams", "Cover URL"]


def isbn13(serial: int) -> str:
    core = f"97881{serial:07d}"
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(core))
    return core + str((10 - total % 10) % 10)


def write_feed(path: Path, rows: int, books: list[tuple]) -> None:
    """The CSV: the catalogue's books first (every fourth repriced), then new ones; 1 row in 100 refused."""
    with open(path, "w", encoding="utf-8-sig", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(HEADER)
        for n in range(rows):
            price = "₹1,250.00" if n % 100 else "₹-5"
            if n < len(books):
                isbn, title, price_paise, stock = books[n]
                price = f"{price_paise / 100 + (1 if n % 4 == 0 else 0):.2f}" if n % 100 else price
                writer.writerow([isbn, title, "", "", price, "", "", stock, "", "", "", "", "", "", "", "", "", ""])
                continue
            writer.writerow([isbn13(n), f"Feed Book {n}", "R. S. Aggarwal", "Solved papers with answers.", price,
                             "999", "GATE", 12, "Arihant", "31/01/2025", "English", 480, "Paperback", "450 g",
                             "english", 2025, "JEE Main", f"https://covers.example.in/{n}.jpg"])


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ensure_venv_python()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--books", type=int, default=5_000)
    parser.add_argument("--database-url")
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="feed-bench-") as folder:
        folder = Path(folder)
        env = app_env(database_url(args.database_url, folder), folder)
        run_flask(env, "db", "upgrade")
        run_flask(env, "seed-demo", "--books", str(args.books), "--no-covers")
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        from bookstore import create_app
        from bookstore.extensions import db
        from bookstore.models import Book
        from bookstore.services.feed_dry_run import DryRun

        app = create_app()
        with app.app_context():
            books = db.session.execute(db.select(Book.isbn, Book.title, Book.price_paise, Book.stock)
                                       .where(Book.isbn.is_not(None)).order_by(Book.id)).all()
            db.session.remove()
            path = folder / "feed.csv"
            write_feed(path, args.rows, [tuple(book) for book in books])
            size_mb = path.stat().st_size / 1024 / 1024
            rss_before = peak_rss_mb()
            if args.tracemalloc:
                tracemalloc.start()
            started = time.perf_counter()
            lines = 0
            with open(path, "rb") as stream:
                run = DryRun(stream, "catalogue")
                for _line in run.lines():
                    lines += 1
            seconds = time.perf_counter() - started
            traced = tracemalloc.get_traced_memory()[1] / 1024 / 1024 if args.tracemalloc else None
        counts = run.counts
        print(f"database: {env['DATABASE_URL'].split(':')[0]}, catalogue {len(books):,} books, "
              f"feed {args.rows:,} rows ({size_mb:.1f} MB CSV)")
        print(f"counts: {counts.created:,} created, {counts.updated:,} updated, {counts.unchanged:,} unchanged, "
              f"{counts.refused:,} refused; {lines:,} report lines")
        print(f"dry run: {seconds:.1f} s, {counts.rows / seconds:,.0f} rows/s")
        print(f"peak RSS: {rss_before:.0f} MB before the run, {peak_rss_mb():.0f} MB after")
        if traced is not None:
            print(f"peak Python allocations during the run (tracemalloc): {traced:.1f} MB")


if __name__ == "__main__":
    main()
