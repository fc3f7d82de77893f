"""The administrators' list of confirmed newsletter subscribers."""
from marshmallow import Schema, fields

from bookstore.schemas.common import AdminPageQuerySchema, PaginationSchema
from bookstore.schemas.fields import IdString, UtcDateTime


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


class SubscriberQuerySchema(AdminPageQuerySchema):
    """A page of the confirmed subscribers."""
