"""Buyers' reviews of a book: the published list for everyone, writing and editing one's own when signed in."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import PageQuerySchema, pagination
from bookstore.schemas.review import (OwnStandingReplySchema, ReviewInputSchema, ReviewListReplySchema,
                                      ReviewReplySchema, ReviewUpdateSchema)
from bookstore.security import current_user, login_required
from bookstore.services import reviews

blp = Blueprint("reviews", __name__, url_prefix="/api/books", description="Reviews")


@blp.route("/<string:book_id>/reviews", methods=["GET"])
@blp.arguments(PageQuerySchema, location="query")
@blp.response(200, ReviewListReplySchema)
def list_reviews(query, book_id):
    """A page of the book's published reviews, newest first, with its average and count."""
    book, page = reviews.published(book_id, query["page"], query["limit"])
    return {"rating": book.rating, "ratingCount": book.rating_count, "reviews": page.items,
            "pagination": pagination(page, "totalReviews")}


@blp.route("/<string:book_id>/reviews", methods=["POST"])
@login_required
@blp.arguments(ReviewInputSchema)
@blp.response(201, ReviewReplySchema)
def create_review(data, book_id):
    """Publish the shopper's review (403 unless an order of theirs with the book was delivered; 409 if they
    already reviewed it: edit it with PUT .../reviews/mine)."""
    return {"message": "Thank you for your review.", "review": reviews.create(current_user(), book_id, data)}


@blp.route("/<string:book_id>/reviews/mine", methods=["GET"])
@login_required
@blp.response(200, OwnStandingReplySchema)
def my_review(book_id):
    """The shopper's own review of the book, if any, and whether they may write one (and why not)."""
    return reviews.standing(current_user(), book_id)


@blp.route("/<string:book_id>/reviews/mine", methods=["PUT"])
@login_required
@blp.arguments(ReviewUpdateSchema)
@blp.response(200, ReviewReplySchema)
def edit_my_review(data, book_id):
    """Change the shopper's own review; fields left out keep their values (404 before they wrote one)."""
    return {"message": "Your review has been updated.", "review": reviews.edit_own(current_user(), book_id, data)}
