"""Reviews: a buyer's stars, title and text in; published reviews with the reviewer's short name out; moderation."""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from bookstore.models import REVIEW_STATUSES
from bookstore.schemas.common import PageQuerySchema, PaginationSchema, ReplySchema, SuccessSchema, page_limit
from bookstore.schemas.fields import IdString, InputSchema, PartialUpdate, Trimmed, UtcDateTime, required

TITLE_MAX = 120
TEXT_MAX = 2000


def short_name(user) -> str:
    """First name and last initial ("Asha V."): enough to be a person, not enough to find one."""
    initial = (user.last_name or "").strip()[:1].upper()
    return f"{user.first_name.strip()} {initial}." if initial else user.first_name.strip()


class ReviewInputSchema(InputSchema):
    """A new review: 1 to 5 stars, an optional title and text."""

    stars = fields.Integer(required=True, strict=True,
                           validate=validate.Range(min=1, max=5, error="Stars must be a whole number from 1 to 5."),
                           error_messages={**required("Stars are required."),
                                           "invalid": "Stars must be a whole number from 1 to 5."})
    title = Trimmed(max_length=TITLE_MAX, load_default="")
    text = Trimmed(max_length=TEXT_MAX, load_default="")


class ReviewUpdateSchema(PartialUpdate, ReviewInputSchema):
    """PUT of one's own review: fields left out keep their values."""

    def __init__(self, **kwargs):
        super().__init__(partial=True, **kwargs)


class ReviewSchema(Schema):
    _id = IdString(attribute="id")
    stars = fields.Integer()
    title = fields.String()
    text = fields.String()
    reviewer = fields.Function(lambda review: short_name(review.user))
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


class OwnReviewSchema(ReviewSchema):
    status = fields.String(metadata={"description": "published, or hidden by the shop"})


class ReviewPaginationSchema(PaginationSchema):
    totalReviews = fields.Integer()


class ReviewListReplySchema(ReplySchema):
    rating = fields.Float(metadata={"description": "The average stars of the published reviews (0 with none)."})
    ratingCount = fields.Integer()
    reviews = fields.List(fields.Nested(ReviewSchema))
    pagination = fields.Nested(ReviewPaginationSchema)


class ReviewReplySchema(SuccessSchema):
    review = fields.Nested(OwnReviewSchema)


class OwnStandingReplySchema(ReplySchema):
    canReview = fields.Boolean(attribute="can_review")
    reason = fields.String(allow_none=True, metadata={"description": "Why the shopper cannot write a review."})
    review = fields.Nested(OwnReviewSchema, allow_none=True)


class AdminReviewQuerySchema(PageQuerySchema):
    limit = page_limit(20)
    status = fields.String(validate=validate.OneOf(REVIEW_STATUSES, error="Status must be published or hidden."))


class AdminReviewSchema(OwnReviewSchema):
    hiddenReason = fields.String(attribute="hidden_reason", allow_none=True)
    book = fields.Function(lambda review: {"_id": str(review.book.id), "title": review.book.title})
    reviewerEmail = fields.Function(lambda review: review.user.email)


class AdminReviewListReplySchema(ReplySchema):
    reviews = fields.List(fields.Nested(AdminReviewSchema))
    pagination = fields.Nested(ReviewPaginationSchema)


class ModerationSchema(InputSchema):
    """Publish a review, or hide it with a reason the shop keeps."""

    status = fields.String(required=True, error_messages=required("Status is required."),
                           validate=validate.OneOf(REVIEW_STATUSES, error="Status must be published or hidden."))
    reason = Trimmed(max_length=500, load_default="")

    @validates_schema
    def hidden_needs_reason(self, data, **_kwargs):
        if data.get("status") == "hidden" and not data.get("reason"):
            raise ValidationError("Give a reason for hiding the review.", field_name="reason")


class AdminReviewReplySchema(SuccessSchema):
    review = fields.Nested(AdminReviewSchema)
