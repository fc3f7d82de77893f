"""The signed-in shopper's wishlist: saved books in, the list out."""
from marshmallow import Schema, fields

from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.book import BookCardSchema
from bookstore.schemas.fields import IdInput, InputSchema, UtcDateTime, required


class WishlistEntrySchema(Schema):
    book = fields.Nested(BookCardSchema)
    addedAt = UtcDateTime(attribute="created_at")


class WishlistReplySchema(SuccessSchema):
    books = fields.List(fields.Nested(WishlistEntrySchema))


class WishlistAddSchema(InputSchema):
    bookId = IdInput(required=True, error_messages={**required("Book id is required."),
                                                   "invalid": "Book id is required."})
