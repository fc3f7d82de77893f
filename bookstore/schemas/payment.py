"""Online payment shapes: configuration, the Razorpay order, Checkout verification, the webhook's reply."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore.schemas.fields import InputSchema, required
from bookstore.schemas.order import OrderSchema


_RAZORPAY_ID = validate.Length(min=1, max=40, error="Payment verification failed")
_VERIFY_MESSAGES = {**required("Payment verification failed"), "invalid": "Payment verification failed"}


class WebhookReplySchema(ReplySchema):
    message = fields.String(metadata={"description": "what the event did"})


class ConfigReplySchema(ReplySchema):
    onlineAvailable = fields.Boolean()
    keyId = fields.String(allow_none=True)
    checkoutUrl = fields.String(allow_none=True)
    message = fields.String()


class CreateOrderSchema(InputSchema):
    orderId = fields.String(required=True, validate=validate.Length(min=1, max=24, error="Unknown order."),
                            error_messages=required("Order id is required."))
    amount = fields.Integer(strict=True, load_default=None, allow_none=True)
    currency = fields.String(load_default=None, allow_none=True)
    receipt = fields.String(load_default=None, allow_none=True)


class RazorpayOrderSchema(Schema):
    id = fields.String()
    amount = fields.Integer()
    currency = fields.String()


class CreateOrderReplySchema(ReplySchema):
    key_id = fields.String()
    order = fields.Nested(RazorpayOrderSchema)


class VerifySchema(InputSchema):
    razorpay_order_id = fields.String(required=True, validate=_RAZORPAY_ID,
                                      error_messages=_VERIFY_MESSAGES)
    razorpay_payment_id = fields.String(required=True, validate=_RAZORPAY_ID,
                                        error_messages=_VERIFY_MESSAGES)
    razorpay_signature = fields.String(required=True, validate=validate.Length(min=1, max=128,
                                                                               error="Payment verification failed"),
                                       error_messages=_VERIFY_MESSAGES)


class VerifyReplySchema(SuccessSchema):
    order = fields.Nested(OrderSchema)
