"""Logs, metrics and error reports: what operators of a fleet read.

`context` holds the request id (jobs carry it on); `logs`, `request_id`, `metrics` and `sentry` are
wired by `register_observability`, which create_app calls before anything else that adds request hooks.
"""
from flask import Flask


def register_observability(app: Flask) -> None:
    """Logging in LOG_FORMAT, Sentry when SENTRY_DSN is set, X-Request-ID, request metrics and /metrics."""
    # Imported here, not above: gunicorn's master imports `logs` alone and needs none of the rest.
    from bookstore.observability import logs, metrics, request_id, sentry

    logs.configure(app)
    sentry.configure(app)
    request_id.register(app)
    metrics.register(app)
