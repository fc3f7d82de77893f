"""The administrators' list of confirmed newsletter subscribers."""
from marshmallow import Schema, fields

from bookstore.schemas.common import AdminPageQuerySchema, ReplySchema, counted_pagination
from bookstore.schemas.fields import IdString, UtcDateTime


class SubscriberSchema(Schema):
    _id = IdString(attribute="id")
    email = fields.String()
    confirmedAt = UtcDateTime(attribute="confirmed_at")
    createdAt = UtcDateTime(attribute="created_at")


class SubscriberListReplySchema(ReplySchema):
    subscribers = fields.List(fields.Nested(SubscriberSchema))
    pagination = counted_pagination("SubscriberPaginationSchema", "totalSubscribers")


class SubscriberQuerySchema(AdminPageQuerySchema):
    """A page of the confirmed subscribers."""
