"""The audit log of administrators' writes, newest first."""
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from bookstore.schemas.book import PageQuerySchema
from bookstore.schemas.common import PaginationSchema
from bookstore.schemas.fields import IdString, UtcDateTime
from bookstore.services import audit

blp = Blueprint("admin_audit", __name__, url_prefix="/api/admin/audit", description="Administration: audit log")


class AuditQuerySchema(PageQuerySchema):
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, error="Limit must be 1 or more."))
    entityType = fields.String(attribute="entity_type", validate=validate.Length(max=40))
    entityId = fields.String(attribute="entity_id", validate=validate.Length(max=64))


class AuditEntrySchema(Schema):
    _id = IdString(attribute="id")
    actor = fields.Function(lambda entry: {"_id": str(entry.actor_id) if entry.actor_id else None,
                                           "email": entry.actor_email})
    action = fields.String()
    entityType = fields.String(attribute="entity_type")
    entityId = fields.String(attribute="entity_id")
    before = fields.Raw()
    after = fields.Raw()
    createdAt = UtcDateTime(attribute="created_at")


class AuditPaginationSchema(PaginationSchema):
    totalEntries = fields.Integer()


class AuditReplySchema(Schema):
    success = fields.Constant(True)
    entries = fields.List(fields.Nested(AuditEntrySchema))
    pagination = fields.Nested(AuditPaginationSchema)


@blp.route("", methods=["GET"])
@blp.arguments(AuditQuerySchema, location="query")
@blp.response(200, AuditReplySchema)
def list_entries(query):
    """Who changed what and when, optionally for one kind of thing (entityType) or one thing (entityId)."""
    page = audit.entries(query["page"], query["limit"], query.get("entity_type"), query.get("entity_id"))
    return {"entries": page.items, "pagination": {"page": page.page, "limit": page.limit, "total": page.total,
                                                  "totalEntries": page.total, "totalPages": page.total_pages}}
