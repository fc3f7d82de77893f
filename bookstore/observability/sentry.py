"""Unexpected errors reported to Sentry when SENTRY_DSN is set, without cookies, credentials or bodies."""
import sentry_sdk
from flask import Flask
from sentry_sdk.integrations.flask import FlaskIntegration

from bookstore.observability.context import current_request_id
from bookstore.observability.logs import redact_query

# Request headers that carry credentials: the shop's bearer tokens, the Google sign-in session cookie.
_DROPPED_HEADERS = {"authorization", "proxy-authorization", "cookie"}


def scrub(event: dict, _hint: dict) -> dict:
    """before_send: drop the request's cookies, body and credential headers, redact secret query
    values, and tag the event with the request id that the logs carry too."""
    details = event.get("request")
    if isinstance(details, dict):
        details.pop("cookies", None)
        details.pop("data", None)
        headers = details.get("headers")
        if isinstance(headers, dict):
            details["headers"] = {name: value for name, value in headers.items()
                                  if name.lower() not in _DROPPED_HEADERS}
        if isinstance(details.get("query_string"), str):
            details["query_string"] = redact_query(details["query_string"])
    request_id = current_request_id()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def configure(app: Flask) -> None:
    """Start Sentry's client for this process when SENTRY_DSN is set; without it nothing is initialised."""
    dsn = app.config["SENTRY_DSN"]
    if not dsn:
        return
    # Frames' local variables are left out: they hold passwords, tokens and request objects (whose repr
    # shows the URL with its query string), which no before_send could find reliably.
    sentry_sdk.init(dsn=dsn, integrations=[FlaskIntegration()], environment=app.config["BOOKSTORE_ENV"],
                    send_default_pii=False, max_request_body_size="never", include_local_variables=False,
                    before_send=scrub)
