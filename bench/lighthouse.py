"""Lighthouse scores of the storefront: home, books, a book page and an exam page, mobile settings.

Usage (from the project root):

    .venv/bin/python bench/lighthouse.py                 # own gunicorn on a fresh 1,200-book SQLite shop
    .venv/bin/python bench/lighthouse.py --runs 5
    .venv/bin/python bench/lighthouse.py --url http://127.0.0.1:8000
    .venv/bin/python bench/lighthouse.py --cpu-slowdown 1          # the same without the CPU slowdown
    .venv/bin/python bench/lighthouse.py --throttling devtools     # slow 4G and the 4x CPU applied for real

Lighthouse is not a dependency of the shop: the first run installs the pinned version with npm into
bench/.data/lighthouse (ignored by git) and later runs reuse it. It drives Debian's Chromium
(/usr/bin/chromium) headless with Lighthouse's default mobile settings: a Moto G Power sized screen,
simulated slow 4G (150 ms round trips, 1.6 Mbit/s) and a CPU 4x slower than this one. Each page is
audited --runs times; the script prints the median of each score and of the metrics behind
performance, and exits 1 with --strict when a median score is under the issue's 95.

By default Lighthouse loads the page at full speed and *simulates* the slow network and CPU from
that trace (its "lantern" model). --throttling devtools applies them while loading instead: the
page really runs on a CPU --cpu-slowdown times slower, so long tasks and LCP are measured, not
estimated (slower and noisier on a busy machine). --cpu-slowdown 1 takes the CPU slowdown away.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from web import CHROMIUM, storefront_pages  # noqa: E402

LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE_DIR = HERE / ".data" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"first-contentful-paint": "FCP ms", "largest-contentful-paint": "LCP ms",
           "total-blocking-time": "TBT ms", "cumulative-layout-shift": "CLS", "speed-index": "SI ms"}
TARGET_SCORE = 95
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")


def lighthouse_binary() -> Path:
    """The pinned Lighthouse CLI, installed on first use."""
    binary = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
        (LIGHTHOUSE_DIR / "package.json").write_text('{"private": true}\n')
        print(f"installing lighthouse@{LIGHTHOUSE_VERSION} into {LIGHTHOUSE_DIR} ...", flush=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", f"lighthouse@{LIGHTHOUSE_VERSION}"],
                       cwd=LIGHTHOUSE_DIR, check=True, capture_output=True, timeout=600)
    return binary


def throttling_flags(method: str, cpu_slowdown: float) -> list[str]:
    """Lighthouse's flags for the throttling method and CPU slowdown (its mobile defaults: simulate, 4)."""
    return [f"--throttling-method={method}", f"--throttling.cpuSlowdownMultiplier={cpu_slowdown:g}"]


def audit(binary: Path, url: str, report_dir: Path, throttling: list[str] = ()) -> dict:
    """One Lighthouse run: the four scores (0-100) and the performance metrics."""
    report = report_dir / "report.json"
    subprocess.run([str(binary), url, "--quiet", "--output=json", f"--output-path={report}",
                    f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}", *throttling],
                   env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True, capture_output=True, timeout=300)
    result = json.loads(report.read_text())
    row = {name: round(result["categories"][name]["score"] * 100) for name in CATEGORIES}
    for audit_id, label in METRICS.items():
        row[label] = result["audits"][audit_id]["numericValue"]
    row["failed"] = sorted(audit_id for audit_id, found in result["audits"].items()
                           if found.get("score") is not None and found["score"] < 0.9
                           and found.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings"))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="audit a running shop instead of starting one")
    parser.add_argument("--runs", type=int, default=3, help="audits per page (medians reported)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a median score is under 95")
    parser.add_argument("--throttling", choices=("simulate", "devtools"), default="simulate",
                        help="simulate (Lighthouse's default) or apply the slow network and CPU while loading")
    parser.add_argument("--cpu-slowdown", type=float, default=4, help="CPU slowdown multiplier (mobile default 4)")
    args = parser.parse_args()
    binary = lighthouse_binary()
    throttling = throttling_flags(args.throttling, args.cpu_slowdown)

    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp, \
            storefront_pages(args.url, Path(tmp)) as (base_url, pages):
        results = {}
        for name, path in pages.items():
            runs = [audit(binary, base_url + path, Path(tmp), throttling) for _ in range(args.runs)]
            results[name] = {key: statistics.median(run[key] for run in runs) for key in runs[0] if key != "failed"}
            results[name]["failed"] = sorted({audit_id for run in runs for audit_id in run["failed"]})

    print(f"Lighthouse {LIGHTHOUSE_VERSION}, mobile settings, {args.throttling} throttling, CPU {args.cpu_slowdown:g}x slower, "
          f"medians of {args.runs} runs ({base_url})\n")
    print(f"{'page':<10} {'perf':>5} {'a11y':>5} {'BP':>5} {'SEO':>5} "
          + " ".join(f"{label:>7}" for label in METRICS.values()))
    below = []
    for name, row in results.items():
        print(f"{name:<10} " + " ".join(f"{row[category]:5.0f}" for category in CATEGORIES) + " "
              + " ".join(f"{row[label]:7.3f}" if label == "CLS" else f"{row[label]:7.0f}" for label in METRICS.values()))
        below += [f"{name} {category} {row[category]:.0f}" for category in CATEGORIES if row[category] < TARGET_SCORE]
    for name, row in results.items():
        if row["failed"]:
            print(f"\n{name}: audits under 0.9 in some run: {', '.join(row['failed'])}")
    print(f"\nmedian scores under {TARGET_SCORE}: {', '.join(below) if below else 'none'}")
    return 1 if args.strict and below else 0


if __name__ == "__main__":
    sys.exit(main())
