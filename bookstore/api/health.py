"""Liveness and readiness checks for load balancers and the PaaS router."""
from flask import jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from bookstore import jobs
from bookstore.blueprint import Blueprint
from bookstore.extensions import db, limiter
from bookstore.schemas.health import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Service health")


def _first_line(error: Exception) -> str:
    return str(getattr(error, "orig", error)).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__


def _database_problem() -> str | None:
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        db.session.rollback()
        return _first_line(error)
    return None


@blp.route("", methods=["GET"])
@limiter.exempt
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=HealthSchema, description="The database does not answer")
def health():
    """Liveness: `{"status": "ok", "database": "ok"}`, or 503 naming what is wrong."""
    problem = _database_problem()
    if problem:
        response = jsonify(status="error", database="unavailable", reason=problem)
        response.status_code = 503
        return response
    return jsonify(status="ok", database="ok")


@blp.route("/ready", methods=["GET"])
@limiter.exempt
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=HealthSchema, description="The database or the job queue does not answer")
def ready():
    """Readiness: the database and the job queue answer (`{"status", "database", "jobs"}`), else 503."""
    database = _database_problem()
    try:
        jobs.ping()
        queue = None
    except Exception as error:  # any storage's failure (Redis, SQLite) means jobs cannot be enqueued
        queue = _first_line(error)
    body = {"status": "ok" if not (database or queue) else "error",
            "database": "unavailable" if database else "ok", "jobs": "unavailable" if queue else "ok"}
    reasons = [reason for reason in (database, queue) if reason]
    if reasons:
        body["reason"] = "; ".join(reasons)
    response = jsonify(body)
    response.status_code = 503 if reasons else 200
    return response
