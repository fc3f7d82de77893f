"""The audit log of administrators' writes: its query and entries."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.common import PageQuerySchema, ReplySchema, counted_pagination, page_limit
from bookstore.schemas.fields import IdString, UtcDateTime


class AuditQuerySchema(PageQuerySchema):
    limit = page_limit(20)
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


class AuditReplySchema(ReplySchema):
    entries = fields.List(fields.Nested(AuditEntrySchema))
    pagination = counted_pagination("AuditPaginationSchema", "totalEntries")
