"""Operations: request ids, logs, /metrics and error reports to Sentry, through the app's HTTP interface."""
import json
import logging
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import sentry_sdk
from prometheus_client.parser import text_string_to_metric_families

from bookstore.observability import metrics
from bookstore.observability.context import bound_request_id, current_request_id
from tests.fakes.sentry_server import FakeSentry

ROOT = Path(__file__).resolve().parent.parent.parent
TOKEN = "metrics-token-0123456789"
GENERATED = re.compile(r"[0-9a-f]{32}")


def add_failing_route(app, path: str = "/api/test-failure"):
    """A test-only view that fails the way an unexpected bug would."""
    def fail():
        raise RuntimeError("test failure: something unforeseen")
    app.add_url_rule(path, "test_failure", fail, methods=["GET", "POST"])


def samples(text: str, name: str) -> dict[tuple, float]:
    """{sorted label pairs: value} of one sample name in a Prometheus text page."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def requests_counted(text: str, endpoint: str, status: str = "200") -> float:
    """bookstore_http_requests_total for one endpoint and status, over every method."""
    return sum(value for labels, value in samples(text, "bookstore_http_requests_total").items()
               if dict(labels)["endpoint"] == endpoint and dict(labels)["status"] == status)


def scrape(client) -> str:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


# ------------------------------------------------------------------ request ids

def test_a_request_without_an_id_gets_a_fresh_one(client):
    """Without X-Request-ID the shop makes a uuid4 hex id per request and answers with it."""
    first = client.get("/api/health")
    second = client.get("/api/health")
    assert first.status_code == second.status_code == 200
    assert GENERATED.fullmatch(first.headers["X-Request-ID"])
    assert GENERATED.fullmatch(second.headers["X-Request-ID"])
    assert first.headers["X-Request-ID"] != second.headers["X-Request-ID"]


def test_a_sane_incoming_id_is_echoed(client):
    """A router's id (letters, digits, dot, dash, underscore, at most 64) is kept and echoed."""
    given = "edge-7f3a.2_" + "x" * 52
    response = client.get("/api/health", headers={"X-Request-ID": given})
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == given


@pytest.mark.parametrize("given", ["a" * 65, "abc\nSet-Cookie: session=forged", "abc\r\nX-Injected: 1",
                                   "with space", "<script>", "ünïcode", ""])
def test_an_unsafe_incoming_id_is_replaced(client, given):
    """An id too long or carrying other characters (newlines forge log lines) is replaced by a fresh one."""
    response = client.get("/api/health", environ_base={"HTTP_X_REQUEST_ID": given})
    assert response.status_code == 200
    assert GENERATED.fullmatch(response.headers["X-Request-ID"])
    assert "X-Injected" not in response.headers and "Set-Cookie" not in response.headers


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/", 200),                        # the client's shell
    ("GET", "/robots.txt", 200),              # a file
    ("GET", "/api/no-such-thing", 404),       # the JSON 404
    ("GET", "/api/admin/orders", 401),        # refused by the admin guard, a request hook of its own
    ("POST", "/api/auth/login", 400),         # refused by validation
    ("DELETE", "/api/books", 405),
    ("GET", "/api/test-failure", 500),        # an unexpected error
])
def test_every_response_carries_the_request_id(make_app, method, path, status):
    """The id is echoed on every response: pages, files, refusals and errors included."""
    app = make_app()  # an app of its own: the test adds a route to it
    add_failing_route(app)
    response = app.test_client().open(path, method=method, headers={"X-Request-ID": "trace-1"},
                                      data="not json", content_type="application/json")
    assert response.status_code == status
    assert response.headers["X-Request-ID"] == "trace-1"
    if path.startswith("/api/"):
        assert response.get_json()["success"] is False


# ------------------------------------------------------------------ logs

def test_production_logs_are_json_lines_carrying_the_request_id(make_app, capsys):
    """In production every log line is one JSON object, and a request's lines carry its id."""
    app = make_app(BOOKSTORE_ENV="production", PUBLIC_URL="https://books.example.in")
    add_failing_route(app)
    capsys.readouterr()
    response = app.test_client().get("/api/test-failure", headers={"X-Request-ID": "trace-json-1"})
    assert response.status_code == 500
    assert response.get_json() == {"success": False, "message": "Something went wrong on our side. Please try again."}
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is JSON, the traceback included
    failure = next(record for record in records if record["message"].startswith("Unhandled error"))
    assert failure["level"] == "ERROR" and failure["logger"] == "bookstore.errors"
    assert failure["request_id"] == "trace-json-1"
    assert "RuntimeError: test failure" in failure["exc_info"] and failure["time"]


def test_development_logs_are_plain_lines_with_the_request_id(make_app, capsys):
    """Outside production a log line is plain text: time, level, [request id], logger, message."""
    app = make_app(BOOKSTORE_ENV="development")
    add_failing_route(app)
    capsys.readouterr()
    assert app.test_client().get("/api/test-failure", headers={"X-Request-ID": "trace-text-1"}).status_code == 500
    err = capsys.readouterr().err
    assert re.search(r"^\S+ \S+ ERROR \[trace-text-1\] bookstore\.errors: Unhandled error on GET /api/test-failure$",
                     err, re.MULTILINE), err


def test_work_bound_to_a_request_id_logs_it_outside_any_request(make_app, capsys):
    """A job run under bound_request_id (the id of the request that enqueued it) logs that id; outside, null."""
    make_app(BOOKSTORE_ENV="production", PUBLIC_URL="https://books.example.in")
    log = logging.getLogger("bookstore.jobs.test")
    capsys.readouterr()
    with bound_request_id("trace-job-1"):
        assert current_request_id() == "trace-job-1"
        log.warning("inside the job")
    log.warning("after the job")
    assert current_request_id() is None
    inside, after = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert (inside["message"], inside["request_id"]) == ("inside the job", "trace-job-1")
    assert (after["message"], after["request_id"]) == ("after the job", None)


def test_an_unknown_log_format_refuses_to_start(make_app):
    """LOG_FORMAT is json or text; a typo stops the app at start-up."""
    with pytest.raises(RuntimeError, match="LOG_FORMAT"):
        make_app(LOG_FORMAT="yaml")


# ------------------------------------------------------------------ /metrics

def test_metrics_is_404_when_no_token_is_configured(client):
    """Without METRICS_TOKEN /metrics does not exist, whatever the caller sends."""
    for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer anything"}):
        response = client.get("/metrics", headers=headers)
        assert response.status_code == 404
        assert response.get_json() == {"success": False, "message": "Not found."}


@pytest.mark.parametrize("authorization", [None, "", f"Bearer {TOKEN}x", f"bearer {TOKEN}", TOKEN,
                                           f"Basic {TOKEN}", "Bearer wrong"])
def test_metrics_is_404_without_the_right_bearer_token(make_app, authorization):
    """With METRICS_TOKEN set, a missing or wrong Authorization header gets the same 404 as an unknown address."""
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    headers = {} if authorization is None else {"Authorization": authorization}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 404
    assert response.get_json() == {"success": False, "message": "Not found."}
    assert "bookstore_" not in response.get_data(as_text=True)


def test_metrics_counts_requests_by_endpoint_name_for_the_token_holder(make_app):
    """The token holder reads Prometheus text where requests are counted by endpoint name, never by raw path."""
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    before = scrape(client)
    for book_id in ("missing-1", "missing-2", "missing-3"):
        assert client.get(f"/api/books/{book_id}").status_code in (404, 422)
    assert client.get("/api/health").status_code == 200
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.content_type.startswith("text/plain; version=0.0.4")
    assert response.headers["Cache-Control"] == "no-store"
    after = response.get_data(as_text=True)
    assert requests_counted(after, "health.health") == requests_counted(before, "health.health") + 1
    assert "missing-1" not in after  # the book route is one series whatever the id
    latency = samples(after, "bookstore_http_request_duration_seconds_count")
    assert latency[(("endpoint", "health.health"), ("method", "GET"))] >= 1


def test_unusual_methods_do_not_add_series(make_app):
    """A made-up HTTP method is counted as "other", so clients cannot grow the number of series."""
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    assert client.open("/api/health", method="BREW").status_code == 405
    text = scrape(client)
    methods = {dict(labels)["method"] for labels in samples(text, "bookstore_http_requests_total")}
    assert "BREW" not in methods and "other" in methods


_RATE_LIMITED_APP = """
import json, sys
from bookstore import create_app
app = create_app({"BOOKSTORE_ENV": "testing", "DATABASE_URL": sys.argv[1], "MEDIA_ROOT": sys.argv[2],
                  "SECRET_KEY": "s" * 40, "JWT_SECRET_KEY": "j" * 40, "JOBS_URL": "immediate://",
                  "RATELIMIT_STORAGE_URI": "memory://", "METRICS_TOKEN": "t", "RATELIMIT_DEFAULT": "2 per minute"})
client = app.test_client()
print(json.dumps({"robots": [client.get("/robots.txt").status_code for _ in range(3)],
                  "metrics": [client.get("/metrics", headers={"Authorization": "Bearer t"}).status_code
                              for _ in range(5)]}))
"""


def test_metrics_is_exempt_from_rate_limits(database_url, tmp_path):
    """A default limit that stops other pages never stops the scraper."""
    # Its own interpreter: Flask-Limiter keeps default limits on the one shared Limiter for good.
    result = subprocess.run([sys.executable, "-c", _RATE_LIMITED_APP, database_url, str(tmp_path / "media")],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    statuses = json.loads(result.stdout.strip().splitlines()[-1])
    assert statuses == {"robots": [200, 200, 429], "metrics": [200] * 5}


def test_business_counters_appear_in_metrics(make_app):
    """Orders, payments and job outcomes reported through the metrics hooks are served by label."""
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    before = scrape(client)
    metrics.order_placed("cod")
    metrics.payment_recorded("webhook")
    metrics.job_finished("send_mail", "ok")
    metrics.job_finished("send_mail", "error")
    after = scrape(client)
    for name, labels in [("bookstore_orders_placed_total", (("payment_method", "cod"),)),
                         ("bookstore_payments_recorded_total", (("source", "webhook"),)),
                         ("bookstore_jobs_total", (("job", "send_mail"), ("outcome", "ok"))),
                         ("bookstore_jobs_total", (("job", "send_mail"), ("outcome", "error")))]:
        assert samples(after, name)[labels] == samples(before, name).get(labels, 0) + 1


def test_queue_depth_is_read_at_scrape_time_and_left_out_when_the_queue_fails(make_app, monkeypatch):
    """bookstore_jobs_queued is the queue's answer at each scrape; a queue that fails leaves it out, not the scrape."""
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    depth = {"value": 7}

    def queue_depth():
        if depth["value"] is None:
            raise ConnectionError("queue storage unreachable")
        return depth["value"]

    monkeypatch.setitem(sys.modules, "bookstore.jobs", types.SimpleNamespace(queue_depth=queue_depth))
    assert samples(scrape(client), "bookstore_jobs_queued") == {(): 7.0}
    depth["value"] = 3
    assert samples(scrape(client), "bookstore_jobs_queued") == {(): 3.0}
    depth["value"] = None
    text = scrape(client)
    assert samples(text, "bookstore_jobs_queued") == {} and "bookstore_http_requests_total" in text


# ------------------------------------------------------------------ Sentry

@pytest.fixture
def sentry():
    """A fake Sentry; the SDK's client is closed and detached afterwards, so later tests report nothing."""
    with FakeSentry() as fake:
        yield fake
        client = sentry_sdk.get_client()
        if client.is_active():
            client.close(timeout=2)
        sentry_sdk.get_global_scope().set_client(None)


# sentry-sdk 2.75 calls send_default_pii deprecated (in favour of data_collection); the shop sets it False on purpose.
@pytest.mark.filterwarnings("ignore:The send_default_pii option is deprecated:DeprecationWarning")
def test_unexpected_errors_reach_sentry_without_credentials_cookies_or_bodies(make_app, sentry):
    """With SENTRY_DSN an unexpected error reaches Sentry with its request id, without credentials, cookies or body."""
    app = make_app(SENTRY_DSN=sentry.dsn)
    add_failing_route(app)
    response = app.test_client().post(
        "/api/test-failure?token=link-secret-123&page=2", json={"password": "body-secret-456"},
        headers={"Authorization": "Bearer bearer-secret-789", "Cookie": "session=cookie-secret-012",
                 "X-Request-ID": "trace-sentry-1", "User-Agent": "observability-test"})
    assert response.status_code == 500
    assert response.get_json()["success"] is False
    sentry_sdk.flush(timeout=5)

    events = sentry.events()
    assert len(events) == 1, events
    event = events[0]
    assert "RuntimeError" in json.dumps(event.get("exception", {})) or "RuntimeError" in json.dumps(event)
    assert event["environment"] == "testing"
    assert event["tags"]["request_id"] == "trace-sentry-1"
    details = event["request"]
    assert {name.lower() for name in details["headers"]}.isdisjoint({"authorization", "cookie"})
    assert details["headers"]["User-Agent"] == "observability-test"
    assert "cookies" not in details and "data" not in details
    assert "page=2" in details["query_string"] and "link-secret-123" not in details["query_string"]
    everything = b"".join(sentry.raw)
    for secret in (b"bearer-secret-789", b"cookie-secret-012", b"body-secret-456", b"link-secret-123"):
        assert secret not in everything


def test_without_a_dsn_sentry_is_not_initialised(make_app, sentry):
    """No SENTRY_DSN: no Sentry client, and an error sends nothing anywhere."""
    app = make_app()
    add_failing_route(app)
    assert not sentry_sdk.get_client().is_active()
    assert app.test_client().get("/api/test-failure").status_code == 500
    sentry_sdk.flush(timeout=1)
    assert sentry.raw == []

