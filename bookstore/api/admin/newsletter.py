"""Administrators' view of the newsletter list: confirmed subscribers, paged, and a CSV export."""
from datetime import timezone

from flask import Response, stream_with_context

from bookstore.blueprint import Blueprint
from bookstore.models import utcnow
from bookstore.schemas.common import pagination
from bookstore.schemas.newsletter import SubscriberListReplySchema, SubscriberQuerySchema
from bookstore.services import newsletter
from bookstore.services.csv_export import rows_to_csv
from bookstore.services.india import IST

blp = Blueprint("admin_newsletter", __name__, url_prefix="/api/admin/newsletter",
                description="Administration: newsletter")


@blp.route("", methods=["GET"])
@blp.arguments(SubscriberQuerySchema, location="query")
@blp.response(200, SubscriberListReplySchema)
def list_subscribers(query):
    """Confirmed subscribers, newest first."""
    page = newsletter.confirmed(query["page"], query["limit"])
    return {"subscribers": page.items, "pagination": pagination(page, "totalSubscribers")}


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
