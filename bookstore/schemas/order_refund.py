"""Refund shapes: an administrator's part refund in; an order's RTO parcel and part refunds out."""
from marshmallow import Schema, ValidationError, fields, validates

from bookstore.schemas.common import ReplySchema, counted_pagination
from bookstore.schemas.fields import InputSchema, Rupees, Trimmed, UtcDateTime, required, required_text


class PartRefundInputSchema(InputSchema):
    """POST /api/admin/orders/{id}/refunds: how much to give back and why (cash on delivery: the payout's
    reference)."""

    amount = Rupees(required=True, error_messages=required("Give the amount to refund."), metadata={
        "description": "rupees, more than 0 and at most what the order may still refund (refundable)"})
    reason = required_text("A reason", 300, metadata={"description": "kept with the refund, audited and mailed"})
    payoutReference = Trimmed(max_length=60, attribute="payout_reference", load_default="", metadata={
        "description": "cash on delivery only: the UPI or bank transfer's reference"})

    @validates("amount")
    def _positive(self, value, **_kwargs):
        if value <= 0:
            raise ValidationError("The amount must be more than 0.")


class OrderRefundSchema(Schema):
    """A refund of part of an order: an RTO parcel's share (`rto`) or an administrator's part refund (`part`).
    `status`: refund_pending, refunded, failed (Razorpay refused; an administrator looks) or not_collected
    (a cash-on-delivery parcel that came back: never paid)."""

    _id = fields.String(attribute="public_id")
    kind = fields.String()
    amount = Rupees(attribute="amount_paise")
    reason = fields.String()
    status = fields.String()
    createdAt = UtcDateTime(attribute="created_at")
    refundedAt = UtcDateTime(attribute="refunded_at", allow_none=True)


class AdminOrderRefundSchema(OrderRefundSchema):
    createdBy = fields.String(attribute="created_by")
    payoutReference = fields.String(attribute="payout_reference", allow_none=True)
    razorpayRefundId = fields.String(attribute="razorpay_refund_id", allow_none=True)
    attempts = fields.Integer(attribute="refund_attempts")
    error = fields.String(attribute="refund_error")


class StuckRefundOrderSchema(Schema):
    _id = fields.String(attribute="public_id")
    orderNumber = fields.String(attribute="order_number")


class StuckRefundSchema(Schema):
    """A refund that needs a person (GET /api/admin/refunds/attention): Razorpay refused it for good (`stopped`)
    or it has failed again and again. `_id` and `kind` name it for the retry."""

    _id = fields.String(attribute="public_id", metadata={
        "description": "cancel: the order's _id; return: the return's; rto and part: the refund's"})
    kind = fields.String(metadata={"description": "cancel (the order's own refund), return, rto or part"})
    order = fields.Nested(StuckRefundOrderSchema)
    amount = Rupees(attribute="amount_paise", metadata={
        "description": "what a retry would ask of Razorpay now: at most what the order may still refund"})
    attempts = fields.Integer()
    error = fields.String(metadata={"description": "Razorpay's last error"})
    stopped = fields.Boolean(metadata={"description": "refused for a reason that won't change: retried only by hand"})
    since = UtcDateTime(metadata={"description": "the refund's last change (rto and part: when it was made)"})


class StuckRefundListReplySchema(ReplySchema):
    refunds = fields.List(fields.Nested(StuckRefundSchema))
    pagination = counted_pagination("StuckRefundPaginationSchema", "totalRefunds")
