"""Administrators' moderation of reviews: the list by status, publish or hide with a reason (guarded: under
/api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import pagination
from bookstore.schemas.review import (AdminReviewListReplySchema, AdminReviewQuerySchema, AdminReviewReplySchema,
                                      ModerationSchema)
from bookstore.security import current_user
from bookstore.services import reviews

blp = Blueprint("admin_reviews", __name__, url_prefix="/api/admin/reviews", description="Administration: reviews")


@blp.route("", methods=["GET"])
@blp.arguments(AdminReviewQuerySchema, location="query")
@blp.response(200, AdminReviewListReplySchema)
def list_reviews(query):
    """Reviews newest first, optionally of one status (published or hidden)."""
    page = reviews.for_admin(query["page"], query["limit"], query.get("status"))
    return {"reviews": page.items, "pagination": pagination(page, "totalReviews")}


@blp.route("/<string:review_id>", methods=["PUT"])
@blp.arguments(ModerationSchema)
@blp.response(200, AdminReviewReplySchema)
def moderate_review(data, review_id):
    """Publish a review or hide it with a reason; audited, and the book's average follows."""
    review = reviews.moderate(current_user(), review_id, data["status"], data["reason"])
    return {"message": "Review published." if review.status == "published" else "Review hidden.", "review": review}
