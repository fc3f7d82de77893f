"""The signed-in shopper's wishlist (product §3.8: paths under /api/users)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.wishlist import WishlistAddSchema, WishlistReplySchema
from bookstore.security import current_user, login_required
from bookstore.services import wishlist

blp = Blueprint("wishlist", __name__, url_prefix="/api/users/wishlist", description="Wishlist")


@blp.route("", methods=["GET"])
@login_required
@blp.response(200, WishlistReplySchema)
def get_wishlist():
    """The saved books, newest first."""
    return {"books": wishlist.items(current_user())}


@blp.route("", methods=["POST"])
@login_required
@blp.arguments(WishlistAddSchema)
@blp.response(200, WishlistReplySchema)
@blp.alt_response(201, schema=WishlistReplySchema, description="Added")
def add_to_wishlist(data):
    """Save a book (201 when added, 200 when it was there already)."""
    user = current_user()
    added = wishlist.add(user, data["bookId"])
    reply = {"message": "Added to wishlist" if added else "Already in wishlist", "books": wishlist.items(user)}
    return reply, 201 if added else 200


@blp.route("/<string:book_id>", methods=["DELETE"])
@login_required
@blp.response(200, WishlistReplySchema)
def remove_from_wishlist(book_id):
    """Forget a saved book; removing one that is absent still succeeds."""
    user = current_user()
    wishlist.remove(user, book_id)
    return {"message": "Removed from wishlist", "books": wishlist.items(user)}
