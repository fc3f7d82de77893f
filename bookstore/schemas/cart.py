"""The signed-in shopper's cart kept on the server: its lines in (PUT /api/cart), the lines with their books out."""
from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from bookstore.schemas.common import SuccessSchema
from bookstore.models import parse_id
from bookstore.schemas.book import BookCardSchema
from bookstore.schemas.fields import InputSchema, required
from bookstore.schemas.order import MAX_LINES, TOO_MANY_LINES, OrderItemInput


class CartInputSchema(InputSchema):
    """The whole cart: every line of {book, quantity}; an empty list empties it."""

    items = fields.List(fields.Nested(OrderItemInput), required=True,
                        error_messages={**required("The cart's items are required."),
                                        "type": "Items must be a list of {book, quantity}."},
                        validate=validate.Length(max=MAX_LINES, error=TOO_MANY_LINES))

    @pre_load(pass_collection=True)
    def count_lines_first(self, data, **_kwargs):
        """Too many lines are refused before any line is read (as CartLinesInput does)."""
        items = data.get("items") if isinstance(data, dict) else None
        if isinstance(items, list) and len(items) > MAX_LINES:
            raise ValidationError(TOO_MANY_LINES, "items")
        return data

    @validates_schema
    def one_line_per_book(self, data, **_kwargs):
        # Kits are priced and re-read from GET /api/kits by the browser's cart; the saved cart keeps books.
        if any(item.get("kit") is not None or item.get("book") is None for item in data.get("items", [])):
            raise ValidationError("The saved cart holds books only; kits stay in this browser's cart.", "items")
        books = [parse_id(item["book"]) or item["book"] for item in data.get("items", [])]
        if len(books) != len(set(books)):
            raise ValidationError("Each book may appear only once; change its quantity instead.", "items")


class CartLineSchema(Schema):
    book = fields.Nested(BookCardSchema)
    quantity = fields.Integer()


class CartReplySchema(SuccessSchema):
    items = fields.List(fields.Nested(CartLineSchema))
