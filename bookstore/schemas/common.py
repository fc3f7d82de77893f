"""Envelope pieces every reply shares (success flag, pagination) and the query of every paged list."""
from marshmallow import Schema, fields, post_load, validate

from bookstore.schemas.fields import InputSchema

MAX_LIMIT = 100


class SuccessSchema(Schema):
    success = fields.Constant(True)
    message = fields.String()


class PaginationSchema(Schema):
    page = fields.Integer()
    limit = fields.Integer()
    total = fields.Integer()
    totalPages = fields.Integer()
    totalIsApproximate = fields.Boolean(metadata={
        "description": "Book lists only: true when the count stopped early and more than `total` match "
                       "(a search with over 1,000 matches); totalPages then counts the page after `total` too."})


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


class PageQuerySchema(InputSchema):
    """`page` from 1; `limit` defaults to 12 and is clamped to 100 (product §1.4). A list whose screen shows
    fewer rows subclasses it with `limit = page_limit(10)`."""

    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=100000, error="Page must be 1 or more."))
    limit = page_limit()

    @post_load
    def clamp(self, data, **_kwargs):
        data["limit"] = min(data["limit"], MAX_LIMIT)
        return data
