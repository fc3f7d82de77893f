"""Prometheus metrics: requests by endpoint, jobs, orders, payments and the job queue's depth, at /metrics.

Under gunicorn every worker (and the embedded job consumer) writes its counts to files in
PROMETHEUS_MULTIPROC_DIR, which gunicorn.conf.py sets before the workers start, and a scrape answered
by any worker adds them all up. Without it (flask run, the test client) the process's own registry
is served. Labels are Flask endpoint names and fixed words, never raw paths: the series stay few.
"""
import hmac
import os
import time

from flask import Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from bookstore.errors import NotFound
from bookstore.extensions import limiter

# prometheus_client chose where its values live (memory or that folder) when it was imported, from
# this variable; a scrape must read the same place.
_MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
# Any other method (clients may send any word) is counted as "other", so it cannot add series.
_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

REQUESTS = Counter("bookstore_http_requests_total", "Requests answered, by Flask endpoint, method and status.",
                   ["endpoint", "method", "status"])
LATENCY = Histogram("bookstore_http_request_duration_seconds",
                    "Time from the first request hook to the last response hook, by Flask endpoint and method.",
                    ["endpoint", "method"])
JOBS = Counter("bookstore_jobs_total", "Jobs finished, by job and outcome (ok, error, retry).", ["job", "outcome"])
ORDERS = Counter("bookstore_orders_placed_total", "Orders placed, by payment method.", ["payment_method"])
PAYMENTS = Counter("bookstore_payments_recorded_total", "Payments recorded as paid, by source.", ["source"])


def job_finished(name: str, outcome: str) -> None:
    """A job ended: outcome 'ok' or 'error' (the queue also reports 'retry')."""
    JOBS.labels(name, outcome).inc()


def order_placed(payment_method: str) -> None:
    """An order was placed."""
    ORDERS.labels(payment_method).inc()


def payment_recorded(source: str) -> None:
    """A payment was recorded as paid (verify, webhook or reconcile)."""
    PAYMENTS.labels(source).inc()


class QueueDepth:
    """bookstore_jobs_queued: jobs waiting for a consumer, asked of the queue at each scrape."""

    NAME = "bookstore_jobs_queued"
    HELP = "Jobs waiting for a consumer."

    def describe(self):
        # Named without reading the queue, so registering this collector touches no storage.
        return [GaugeMetricFamily(self.NAME, self.HELP)]

    def collect(self):
        try:
            from bookstore.jobs import queue_depth
            depth = queue_depth()
        except Exception:  # no queue in this build, or its storage is unreachable: no figure beats a failed scrape
            return
        yield GaugeMetricFamily(self.NAME, self.HELP, value=depth)


_QUEUE_DEPTH = QueueDepth()
REGISTRY.register(_QUEUE_DEPTH)


def exposition() -> bytes:
    """Every metric in Prometheus' text format: all processes' files in multiprocess mode, else this process's."""
    if not _MULTIPROCESS_DIR:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=_MULTIPROCESS_DIR)
    registry.register(_QUEUE_DEPTH)
    return generate_latest(registry)


def _authorized() -> bool:
    token = current_app.config["METRICS_TOKEN"]
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@limiter.exempt
def serve_metrics():
    """GET /metrics for a scraper holding METRICS_TOKEN; to anyone else a 404 like an unknown address.

    :raise NotFound: without the setting, or without its bearer token.
    """
    if not _authorized():
        raise NotFound("Not found.")
    # The classic text format (0.0.4), which every Prometheus version reads.
    return Response(exposition(), content_type=CONTENT_TYPE_PLAIN_0_0_4, headers={"Cache-Control": "no-store"})


def _start_timer() -> None:
    g._request_started = time.perf_counter()


def _count_request(response):
    started = g.pop("_request_started", None)
    endpoint = request.url_rule.endpoint if request.url_rule is not None else "unmatched"
    method = request.method if request.method in _METHODS else "other"
    REQUESTS.labels(endpoint, method, str(response.status_code)).inc()
    if started is not None:
        LATENCY.labels(endpoint, method).observe(time.perf_counter() - started)
    return response


def register(app: Flask) -> None:
    """/metrics, and the hooks that time and count every request (first in, last out, so refusals count)."""
    app.add_url_rule("/metrics", "metrics", serve_metrics, methods=["GET"])
    app.before_request_funcs.setdefault(None, []).insert(0, _start_timer)
    app.after_request_funcs.setdefault(None, []).insert(0, _count_request)
