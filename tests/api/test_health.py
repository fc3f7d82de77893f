"""Health check and the API's fall-back behaviour."""


def test_health_reports_database_ok(client):
    """A healthy server says so, including its database."""
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_health_is_503_when_database_unreachable(make_app):
    """A load balancer must see 503 with the reason when the database is gone."""
    app = make_app(DATABASE_URL="postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1")
    response = app.test_client().get("/api/health")
    assert response.status_code == 503
    body = response.get_json()
    assert body["status"] == "error" and body["database"] == "unavailable" and body["reason"]


def test_unknown_api_path_is_json_404(client):
    """Unknown /api paths answer in the envelope, never with the SPA's HTML."""
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.get_json() == {"success": False, "message": "No such API endpoint."}


def test_wrong_method_is_json_405(client):
    """A wrong method on an API path is a JSON 405 in the envelope."""
    response = client.delete("/api/books")
    assert response.status_code == 405
    assert response.get_json()["success"] is False


def test_openapi_document_describes_the_api(client):
    """The OpenAPI document is published and lists the catalogue and account paths."""
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    paths = response.get_json()["paths"]
    for path in ("/api/books", "/api/books/{book_id}", "/api/auth/login", "/api/categories", "/api/contact"):
        assert path in paths


def test_api_replies_are_not_cached_and_carry_security_headers(client):
    """API replies are no-store and carry nosniff."""
    response = client.get("/api/categories")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_openapi_document_is_valid_and_lists_the_admin_api(client):
    """The published document passes an OpenAPI validator and describes every admin call."""
    from openapi_spec_validator import validate
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    for path in ("/api/admin/dashboard/stats", "/api/admin/dashboard/recent-orders", "/api/admin/orders/export.csv",
                 "/api/admin/newsletter", "/api/admin/newsletter/export.csv", "/api/admin/audit",
                 "/api/contact/{message_id}/status"):
        assert path in document["paths"], path
    assert {"get", "post"} <= set(document["paths"]["/api/contact"])
    assert {"get", "put", "delete"} <= set(document["paths"]["/api/books/{book_id}"])


def test_readiness_checks_the_database_and_the_job_queue(make_app, tmp_path):
    """/api/health/ready answers 200 when the database and the queue (a SQLite file here) answer."""
    app = make_app(JOBS_URL=f"sqlite:///{tmp_path / 'jobs.sqlite3'}")
    response = app.test_client().get("/api/health/ready")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok", "jobs": "ok"}


def test_readiness_is_503_when_the_job_queue_is_unreachable(make_app):
    """With Redis gone, readiness fails with the reason while liveness stays 200."""
    app = make_app(JOBS_URL="redis://127.0.0.1:1/0?socket_connect_timeout=1")
    client = app.test_client()
    response = client.get("/api/health/ready")
    assert response.status_code == 503
    body = response.get_json()
    assert (body["status"], body["database"], body["jobs"]) == ("error", "ok", "unavailable") and body["reason"]
    assert client.get("/api/health").status_code == 200


def test_an_unknown_jobs_url_refuses_to_start(make_app):
    """A mistyped JOBS_URL stops the app at start-up instead of losing jobs later."""
    import pytest
    with pytest.raises(RuntimeError, match="JOBS_URL"):
        make_app(JOBS_URL="amqp://127.0.0.1/")
