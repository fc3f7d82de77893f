"""The catalogue for shoppers: list, detail, shelves and search suggestions."""
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from bookstore.schemas.book import (BookListQuerySchema, BookSchema, ShelfQuerySchema, SuggestionSchema,
                                    SuggestQuerySchema)
from bookstore.schemas.common import PaginationSchema, pagination
from bookstore.services import catalogue, orders

blp = Blueprint("books", __name__, url_prefix="/api/books", description="Catalogue")


class BookListReplySchema(Schema):
    success = fields.Constant(True)
    books = fields.List(fields.Nested(BookSchema))
    totalBooks = fields.Integer()
    totalPages = fields.Integer()
    pagination = fields.Nested(PaginationSchema)


class ShelfReplySchema(Schema):
    success = fields.Constant(True)
    books = fields.List(fields.Nested(BookSchema))


class BookReplySchema(Schema):
    success = fields.Constant(True)
    book = fields.Nested(BookSchema)


class SuggestReplySchema(Schema):
    success = fields.Constant(True)
    suggestions = fields.List(fields.Nested(SuggestionSchema))


@blp.route("", methods=["GET"])
@blp.arguments(BookListQuerySchema, location="query")
@blp.response(200, BookListReplySchema)
def list_books(query):
    """A page of books, filtered, searched and sorted."""
    orders.release_expired_holds_if_any()  # shoppers see stock that unpaid orders no longer hold
    page = catalogue.list_books(search_text=query.pop("search", None), **query)
    return {"books": page.items, "totalBooks": page.total, "totalPages": page.total_pages,
            "pagination": pagination(page)}


@blp.route("/featured", methods=["GET"])
@blp.arguments(ShelfQuerySchema, location="query")
@blp.response(200, ShelfReplySchema)
def featured(query):
    """The home page's featured books."""
    return {"books": catalogue.featured(**query)}


@blp.route("/bestsellers", methods=["GET"])
@blp.arguments(ShelfQuerySchema, location="query")
@blp.response(200, ShelfReplySchema)
def bestsellers(query):
    """Best sellers by copies sold."""
    return {"books": catalogue.bestsellers(**query)}


@blp.route("/new-releases", methods=["GET"])
@blp.arguments(ShelfQuerySchema, location="query")
@blp.response(200, ShelfReplySchema)
def new_releases(query):
    """Newest books by publication date."""
    return {"books": catalogue.new_releases(**query)}


@blp.route("/suggest", methods=["GET"])
@blp.arguments(SuggestQuerySchema, location="query")
@blp.response(200, SuggestReplySchema)
def suggest(query):
    """Search-as-you-type suggestions (spec §9 quotas)."""
    return {"suggestions": catalogue.suggest(query["q"])}


@blp.route("/<string:book_id>", methods=["GET"])
@blp.response(200, BookReplySchema)
def get_book(book_id):
    """One book; 404 for unknown, archived or malformed ids."""
    orders.release_expired_holds_if_any()
    return {"book": catalogue.get_book(book_id)}
