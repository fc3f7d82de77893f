"""Catalogue feed shapes: the dry run's form and its reply (counts and the report's first lines)."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.common import ReplySchema
from bookstore.schemas.fields import InputSchema
from bookstore.services.feed_dry_run import KINDS

MAX_LINES_SHOWN = 1000


class FeedDryRunFormSchema(InputSchema):
    """The multipart form beside the file: which kind of feed, and how many report lines to answer."""

    kind = fields.String(load_default="catalogue", validate=validate.OneOf(
        KINDS, error="Kind must be catalogue or stock (a price & stock feed)."))
    lines = fields.Integer(load_default=100, validate=validate.Range(
        min=0, max=MAX_LINES_SHOWN, error=f"Lines must be from 0 to {MAX_LINES_SHOWN}."),
        error_messages={"invalid": "Lines must be a whole number."})


class FeedCountsSchema(Schema):
    rows = fields.Integer()
    created = fields.Integer()
    updated = fields.Integer()
    unchanged = fields.Integer()
    refused = fields.Integer()


class ReportLineSchema(Schema):
    row = fields.Integer()
    isbn = fields.String()
    outcome = fields.String(metadata={"enum": ["created", "updated", "unchanged", "refused", "ignored"]})
    field = fields.String()
    message = fields.String()


class FeedDryRunReplySchema(ReplySchema):
    """What a feed would do, row by row; nothing is changed."""

    message = fields.String()
    fileType = fields.String(attribute="file_type", metadata={"enum": ["csv", "xlsx", "onix"]})
    kind = fields.String()
    counts = fields.Nested(FeedCountsSchema)
    lines = fields.List(fields.Nested(ReportLineSchema))
    totalLines = fields.Integer(attribute="total_lines")
