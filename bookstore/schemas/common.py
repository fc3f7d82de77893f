"""Envelope pieces every reply shares (success flag, pagination) and the query of every paged list."""
from marshmallow import Schema, fields, post_load, validate

from bookstore.schemas.fields import InputSchema

MAX_LIMIT = 100


class ReplySchema(Schema):
    """Every reply's envelope: `success` true; a list's reply adds its items and `pagination`."""

    success = fields.Constant(True)


class SuccessSchema(ReplySchema):
    """A reply with a message for the shopper or the administrator (a step's reply adds what it changed)."""

    message = fields.String()


class PaginationSchema(Schema):
    page = fields.Integer()
    limit = fields.Integer()
    total = fields.Integer()
    totalPages = fields.Integer()
    totalIsApproximate = fields.Boolean(metadata={
        "description": "Book lists only: true when the count stopped early and more than `total` match "
                       "(a search with over 1,000 matches); totalPages then counts the page after `total` too."})


def counted_pagination(class_name: str, total_name: str) -> fields.Nested:
    """The `pagination` field of a list that also names its total (`totalContacts`...): a PaginationSchema
    with that total, as `class_name` in the OpenAPI document."""
    return fields.Nested(type(class_name, (PaginationSchema,), {total_name: fields.Integer()}))


def pagination(page, total_name: str | None = None) -> dict:
    """The product §1.4 pagination object for a services Page, with the list's named total (totalOrders...)."""
    reply = {"page": page.page, "limit": page.limit, "total": page.total, "totalPages": page.total_pages}
    if total_name:
        reply[total_name] = page.total
    if page.total_is_approximate is not None:
        reply["totalIsApproximate"] = page.total_is_approximate
    return reply


def page_limit(default: int = 12) -> fields.Integer:
    """A list's `limit` query parameter: `default` when absent, at least 1 (PageQuerySchema clamps it to 100)."""
    return fields.Integer(load_default=default, validate=validate.Range(min=1, error="Limit must be 1 or more."))


def text_param(label: str, max_length: int, **kwargs) -> fields.String:
    """A free-text query parameter of at most `max_length` characters ("Category must be at most 60 characters.")."""
    error = f"{label} must be at most {max_length} characters."
    return fields.String(validate=validate.Length(max=max_length, error=error), **kwargs)


def search_param(max_length: int, **kwargs) -> fields.String:
    """A list's search words, at most `max_length` characters ("Search is limited to 100 characters.")."""
    error = f"Search is limited to {max_length} characters."
    return fields.String(validate=validate.Length(max=max_length, error=error), **kwargs)


class PageQuerySchema(InputSchema):
    """`page` from 1; `limit` defaults to 12 and is clamped to 100 (product §1.4). A list whose screen shows
    other counts subclasses it with its own `limit = page_limit(n)` (AdminPageQuerySchema: 10)."""

    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=100000, error="Page must be 1 or more."))
    limit = page_limit()

    @post_load
    def clamp(self, data, **_kwargs):
        data["limit"] = min(data["limit"], MAX_LIMIT)
        return data


class AdminPageQuerySchema(PageQuerySchema):
    """The admin screens' lists: 10 rows a page unless asked otherwise."""

    limit = page_limit(10)
