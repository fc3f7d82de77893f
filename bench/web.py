"""Storefront page-load benchmark: headless Chromium loading the home, books, a book and an exam page.

Usage (from the project root):

    .venv/bin/python bench/web.py                  # own gunicorn on a fresh SQLite shop of 1,200 books
    .venv/bin/python bench/web.py --runs 9
    .venv/bin/python bench/web.py --url http://127.0.0.1:8000   # a shop that is already running

Each page is loaded --runs times, every time in a fresh browser context (empty cache, a first
visit), over loopback. It prints medians of: the JavaScript the page downloaded, as gzip (the
budget's unit: each script fetched again with Accept-Encoding: gzip) and as actually sent to
Chromium (brotli); every byte transferred (HTML, CSS, JS, API replies, covers; bodies as sent);
first contentful paint and largest contentful paint. Each page's gzipped JavaScript is checked against
the budget of 100 KB (issue 4 for home, issue 16 for all four); the exit status is 1 when one is over.
"""
import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.server import Gunicorn  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
JS_BUDGET = 100 * 1024
PAINTS = """() => new Promise((resolve) => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    let lcp = null;
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) lcp = entry.startTime; })
        .observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(() => resolve({ fcp, lcp }), 300);
})"""


def serve_demo_shop(workdir: Path) -> Gunicorn:
    """gunicorn on a fresh SQLite database with the demo catalogue and its covers."""
    server = Gunicorn(f"sqlite:///{workdir / 'shop.db'}", workdir, workers=2, threads=4)
    flask = [str(ROOT / ".venv" / "bin" / "flask"), "--app", "wsgi"]
    for command in (["db", "upgrade"], ["seed-demo", "--books", "1200"]):
        subprocess.run(flask + command, cwd=ROOT, env=server.env, check=True, capture_output=True, timeout=600)
    server.start()
    return server


def gzip_size(url: str, cache: dict) -> int:
    """The script's size as sent to a client that accepts only gzip."""
    if url not in cache:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as response:
            cache[url] = len(response.read())
    return cache[url]


def load_once(browser, url: str, gzip_cache: dict) -> dict:
    """One cold load: bytes by kind and the paint times."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    responses = []
    page.on("requestfinished", lambda request: responses.append(request))
    page.goto(url, wait_until="networkidle")
    paints = page.evaluate(PAINTS)
    sent = {"js": 0, "total": 0}
    js_gzip = 0
    for request in responses:
        sizes = request.sizes()
        body = sizes["responseBodySize"]
        sent["total"] += body + sizes["responseHeadersSize"]
        if request.resource_type == "script":
            sent["js"] += body
            js_gzip += gzip_size(request.url, gzip_cache)
    context.close()
    return {"js_gzip": js_gzip, "js_sent": sent["js"], "total": sent["total"], "fcp": paints["fcp"], "lcp": paints["lcp"]}


def _median(values: list) -> float:
    """The median of the measured values (a paint Chromium did not report counts as missing)."""
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else float("nan")


@contextlib.contextmanager
def storefront_pages(url: str | None, scratch: Path):
    """(base URL, {name: path}) of the four pages measured (home, /books, a book page, an exam page): on the
    shop at `url`, or on a demo shop started in `scratch` for the run and stopped after it."""
    server = None if url else serve_demo_shop(scratch)
    base_url = url.rstrip("/") if url else server.base_url
    try:
        yield base_url, {"home": "/", "books": "/books", "book page": first_book_path(base_url),
                         "exam page": "/exam/jee-main"}
    finally:
        if server:
            server.stop()


def first_book_path(base_url: str) -> str:
    import json
    with urllib.request.urlopen(f"{base_url}/api/books?limit=1&sortBy=bestselling", timeout=30) as response:
        return f"/book/{json.load(response)['books'][0]['_id']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="measure a running shop instead of starting one")
    parser.add_argument("--runs", type=int, default=5, help="loads per page (median reported)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp, \
            storefront_pages(args.url, Path(tmp)) as (base_url, pages):
        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            gzip_cache: dict = {}
            load_once(browser, base_url + "/", gzip_cache)  # warm the server's own caches once
            for name, path in pages.items():
                runs = [load_once(browser, base_url + path, gzip_cache) for _ in range(args.runs)]
                results[name] = {key: _median([run[key] for run in runs]) for key in runs[0]}
            browser.close()

    kb = lambda n: f"{n / 1024:8.1f}"  # noqa: E731
    print(f"Medians of {args.runs} cold loads each, headless Chromium at 1280×800 over loopback ({base_url})\n")
    print(f"{'page':<10} {'JS gzip KB':>10} {'JS sent KB':>10} {'all sent KB':>11} {'FCP ms':>8} {'LCP ms':>8}")
    for name, row in results.items():
        print(f"{name:<10} {kb(row['js_gzip']):>10} {kb(row['js_sent']):>10} {kb(row['total']):>11} "
              f"{row['fcp']:8.0f} {row['lcp']:8.0f}")
    over = [name for name, row in results.items() if row["js_gzip"] > JS_BUDGET]
    verdict = "FAIL: " + ", ".join(over) if over else "PASS"
    largest = max(row["js_gzip"] for row in results.values())
    print(f"\nlargest page JavaScript {largest / 1024:.1f} KB gzip, budget {JS_BUDGET // 1024} KB a page: {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
