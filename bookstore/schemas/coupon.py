"""Coupons in the admin API: rupees and percentages in, paise out of sight, dates in UTC."""
import re

from marshmallow import Schema, ValidationError, fields, validate, validates

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore import money
from bookstore.models import COUPON_KINDS
from bookstore.schemas.fields import IdString, InputSchema, PartialUpdate, Rupees, UtcDateTime, UtcInstant, required

CODE = re.compile(r"[A-Z0-9-]{3,20}")


class CouponInputSchema(InputSchema):
    """Create (all rules) or, with partial=True, change a coupon."""

    code = fields.String(required=True, error_messages=required("Code is required."))
    kind = fields.String(required=True, validate=validate.OneOf(COUPON_KINDS, error="Kind must be percent or flat."),
                         error_messages=required("Kind is required."))
    # A percentage (1 to 90) for 'percent', rupees for 'flat': checked against the kind by the service,
    # which also sees a stored kind when a change sends the value alone.
    value = fields.Decimal(required=True, places=2, as_string=False, error_messages={
        **required("Value is required."), "invalid": "Value must be a number."})
    minOrder = Rupees(attribute="min_order_paise", load_default=0)
    validFrom = UtcInstant(attribute="valid_from", load_default=None, allow_none=True)
    validTo = UtcInstant(attribute="valid_to", load_default=None, allow_none=True)
    maxUses = fields.Integer(attribute="max_uses", strict=True, load_default=None, allow_none=True,
                             validate=validate.Range(min=1, error="Total uses must be 1 or more."))
    maxUsesPerCustomer = fields.Integer(attribute="max_uses_per_customer", strict=True, load_default=1,
                                        allow_none=True,
                                        validate=validate.Range(min=1, error="Uses per customer must be 1 or more."))
    category = fields.String(load_default=None, allow_none=True)
    firstOrderOnly = fields.Boolean(attribute="first_order_only", load_default=False)
    active = fields.Boolean(load_default=True)

    @validates("code")
    def code_shape(self, value, **_kwargs):
        if not CODE.fullmatch(value.strip().upper()):
            raise ValidationError("Code must be 3 to 20 letters, digits or hyphens.")



class CouponSchema(Schema):
    _id = IdString(attribute="id")
    code = fields.String()
    kind = fields.String()
    value = fields.Method("shown_value")
    minOrder = Rupees(attribute="min_order_paise")
    validFrom = UtcDateTime(attribute="valid_from", allow_none=True)
    validTo = UtcDateTime(attribute="valid_to", allow_none=True)
    maxUses = fields.Integer(attribute="max_uses", allow_none=True)
    maxUsesPerCustomer = fields.Integer(attribute="max_uses_per_customer", allow_none=True)
    category = fields.Function(lambda coupon: coupon.category.slug if coupon.category else None, allow_none=True)
    firstOrderOnly = fields.Boolean(attribute="first_order_only")
    active = fields.Boolean()
    uses = fields.Integer()
    createdAt = UtcDateTime(attribute="created_at")

    def shown_value(self, coupon):
        """A percentage as a whole number, a flat amount in rupees."""
        if coupon.kind == "percent":
            return coupon.value
        return money.to_rupees(coupon.value)


class CouponUpdateSchema(PartialUpdate, CouponInputSchema):
    """PUT: fields left out keep their values."""

    def __init__(self, **kwargs):
        super().__init__(partial=True, **kwargs)


class CouponListReplySchema(ReplySchema):
    coupons = fields.List(fields.Nested(CouponSchema))


class CouponReplySchema(SuccessSchema):
    coupon = fields.Nested(CouponSchema)
