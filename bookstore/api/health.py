"""Liveness and database check for load balancers and the PaaS router."""
from flask import jsonify
from flask_smorest import Blueprint
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from bookstore.extensions import db, limiter

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Service health")


@blp.route("", methods=["GET"])
@limiter.exempt
def health():
    """`{"status": "ok", "database": "ok"}`, or 503 naming what is wrong."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0][:200]
        response = jsonify(status="error", database="unavailable", reason=reason)
        response.status_code = 503
        return response
    return jsonify(status="ok", database="ok")
