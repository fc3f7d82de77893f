"""The audit log of administrators' writes, newest first."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.audit import AuditQuerySchema, AuditReplySchema
from bookstore.schemas.common import pagination
from bookstore.services import audit

blp = Blueprint("admin_audit", __name__, url_prefix="/api/admin/audit", description="Administration: audit log")


@blp.route("", methods=["GET"])
@blp.arguments(AuditQuerySchema, location="query")
@blp.response(200, AuditReplySchema)
def list_entries(query):
    """Who changed what and when, optionally for one kind of thing (entityType) or one thing (entityId)."""
    page = audit.entries(query["page"], query["limit"], query.get("entity_type"), query.get("entity_id"))
    return {"entries": page.items, "pagination": pagination(page, "totalEntries")}
