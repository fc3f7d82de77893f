"""Administrators' view of the newsletter list: confirmed subscribers, paged, and a CSV export."""
from datetime import timezone

from flask import Response, stream_with_context
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from bookstore.models import utcnow
from bookstore.schemas.book import PageQuerySchema
from bookstore.schemas.common import PaginationSchema
from bookstore.schemas.fields import IdString, UtcDateTime
from bookstore.services import newsletter
from bookstore.services.csv_export import rows_to_csv
from bookstore.services.india import IST

blp = Blueprint("admin_newsletter", __name__, url_prefix="/api/admin/newsletter",
                description="Administration: newsletter")


class SubscriberSchema(Schema):
    _id = IdString(attribute="id")
    email = fields.String()
    confirmedAt = UtcDateTime(attribute="confirmed_at")
    createdAt = UtcDateTime(attribute="created_at")


class SubscriberPaginationSchema(PaginationSchema):
    totalSubscribers = fields.Integer()


class SubscriberListReplySchema(Schema):
    success = fields.Constant(True)
    subscribers = fields.List(fields.Nested(SubscriberSchema))
    pagination = fields.Nested(SubscriberPaginationSchema)


class SubscriberQuerySchema(PageQuerySchema):
    limit = fields.Integer(load_default=10, validate=validate.Range(min=1, error="Limit must be 1 or more."))


@blp.route("", methods=["GET"])
@blp.arguments(SubscriberQuerySchema, location="query")
@blp.response(200, SubscriberListReplySchema)
def list_subscribers(query):
    """Confirmed subscribers, newest first."""
    page = newsletter.confirmed(query["page"], query["limit"])
    return {"subscribers": page.items, "pagination": {"page": page.page, "limit": page.limit, "total": page.total,
                                                      "totalSubscribers": page.total, "totalPages": page.total_pages}}


def _ist(moment) -> str:
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(IST).strftime("%Y-%m-%d %H:%M")


@blp.route("/export.csv", methods=["GET"])
@blp.response(200, description="Confirmed subscribers as CSV (text/csv).")
def export_subscribers():
    """Every confirmed subscriber as a CSV download, streamed."""
    rows = ([s.email, _ist(s.confirmed_at)] for s in newsletter.all_confirmed())
    filename = f"newsletter-{utcnow().astimezone(IST).date().isoformat()}.csv"
    return Response(stream_with_context(rows_to_csv(["E-mail", "Confirmed at (IST)"], rows)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
