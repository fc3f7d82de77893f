"""Envelope pieces every reply shares: success flag and pagination."""
from marshmallow import Schema, fields


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


def pagination(page) -> dict:
    """The product §1.4 pagination object for a services Page."""
    reply = {"page": page.page, "limit": page.limit, "total": page.total, "totalPages": page.total_pages}
    if page.total_is_approximate is not None:
        reply["totalIsApproximate"] = page.total_is_approximate
    return reply
