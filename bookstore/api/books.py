"""The catalogue: shoppers' list, detail, shelves and suggestions; administrators' book writes."""
from flask import request

from bookstore.blueprint import Blueprint
from bookstore.schemas.book import (BookIdsQuerySchema, BookInputSchema, BookListQuerySchema, BookListReplySchema,
                                    BookQuerySchema, BookRemovedSchema, BookReplySchema, BookSchema, BookUpdateSchema,
                                    ShelfQuerySchema, ShelfReplySchema, SuggestQuerySchema, SuggestReplySchema)
from bookstore.errors import Conflict
from bookstore.request_input import body_limit
from bookstore.security import admin_only, caller_is_admin, current_user, require_admin
from bookstore.services import catalogue, inventory

blp = Blueprint("books", __name__, url_prefix="/api/books", description="Catalogue")

# A 5 MB cover grows by a third as base64; the body limit of book writes leaves room for it so the
# shopper-facing limit elsewhere can stay small (request_input.DEFAULT_BODY_BYTES) and the cover check
# can give its own message.
BOOK_WRITE_MAX_BYTES = 10 * 1024 * 1024


@blp.route("", methods=["GET"])
@blp.arguments(BookListQuerySchema, location="query")
@blp.response(200, BookListReplySchema)
def list_books(query):
    """A page of books, filtered, searched and sorted; administrators may ask for archived ones too."""
    if query.get("include_archived"):
        require_admin()
    return catalogue.list_books(search_text=query.pop("search", None), **query)


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


@blp.route("/by-ids", methods=["GET"])
@blp.arguments(BookIdsQuerySchema, location="query")
@blp.response(200, ShelfReplySchema)
def books_by_ids(query):
    """The current version of several books at once (a cart re-reading its prices and stock); books
    that are unknown or no longer on sale are left out."""
    return {"books": catalogue.visible_books(query["ids"])}


@blp.route("/suggest", methods=["GET"])
@blp.arguments(SuggestQuerySchema, location="query")
@blp.response(200, SuggestReplySchema)
def suggest(query):
    """Search-as-you-type suggestions (product §3.4 quotas)."""
    return {"suggestions": catalogue.suggest(query["q"])}


@blp.route("/<string:book_id>", methods=["GET"])
@blp.arguments(BookQuerySchema, location="query")
@blp.response(200, BookReplySchema)
def get_book(query, book_id):
    """One book; 404 for unknown, archived or malformed ids (administrators may ask for archived ones).
    An administrator's read carries the book's version as its ETag."""
    if query["include_archived"]:
        require_admin()
        book = inventory.find_any(book_id)
    elif caller_is_admin():
        book = catalogue.get_book(book_id)
    else:
        return {"book": catalogue.get_book(book_id)}
    # The admin form sends it back as If-Match, so a save never undoes sales made meanwhile.
    tag = inventory.version_tag(book)
    return {"book": book, "version": tag}, 200, {"ETag": tag}


@blp.route("", methods=["POST"])
@body_limit(BOOK_WRITE_MAX_BYTES)
@admin_only
@blp.arguments(BookInputSchema)
@blp.response(201, BookReplySchema)
def create_book(data):
    """Add a book with its cover (a data URL, decoded and re-encoded by the server)."""
    return {"message": "Book created successfully!", "book": inventory.create_book(data, current_user())}


@blp.route("/<string:book_id>", methods=["PUT"])
@body_limit(BOOK_WRITE_MAX_BYTES)
@admin_only
@blp.arguments(BookUpdateSchema)
@blp.response(200, BookReplySchema)
def update_book(data, book_id):
    """Edit a book; fields left out keep their values, a new data URL replaces the cover. With If-Match
    (the ETag of GET ?includeArchived=true) a book changed meanwhile is 409 with its current version."""
    try:
        book = inventory.update_book(book_id, data, current_user(), request.headers.get("If-Match"))
    except inventory.StaleEdit as stale:
        raise Conflict("This book changed since you opened it: copies were sold or someone saved it. "
                       "Review the current values below and save again.",
                       data={"book": BookSchema().dump(stale.book), "version": inventory.version_tag(stale.book)},
                       headers={"ETag": inventory.version_tag(stale.book)}) from None
    tag = inventory.version_tag(book)
    return {"message": "Book updated successfully!", "book": book, "version": tag}, 200, {"ETag": tag}


@blp.route("/<string:book_id>", methods=["DELETE"])
@admin_only
@blp.response(200, BookRemovedSchema)
def delete_book(book_id):
    """Delete a book never ordered; archive one that appears in orders (order history keeps it)."""
    if inventory.remove_book(book_id, current_user()):
        return {"archived": True,
                "message": "The book is in past orders, so it was archived: shoppers no longer see it."}
    return {"archived": False, "message": "Book deleted."}


@blp.route("/<string:book_id>/restore", methods=["POST"])
@admin_only
@blp.response(200, BookReplySchema)
def restore_book(book_id):
    """Put an archived book back on sale (audited as book.restore); a book already on sale is left as it is."""
    book = inventory.restore_book(book_id, current_user())
    tag = inventory.version_tag(book)
    return {"message": f"{book.title} is on sale again.", "book": book, "version": tag}, 200, {"ETag": tag}
