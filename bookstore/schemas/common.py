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


def pagination(page) -> dict:
    """The decisions §2 pagination object for a services Page."""
    return {"page": page.page, "limit": page.limit, "total": page.total, "totalPages": page.total_pages}
