"""Return shapes: the shopper's request and photo in, the administrator's step in, returns out (masked
refund details for the shopper, the full ones for the administrator until the payout is made)."""
from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from bookstore.models import RETURN_REASONS, RETURN_STATUSES
from bookstore.schemas.common import PageQuerySchema, PaginationSchema, ReplySchema, SuccessSchema
from bookstore.schemas.fields import IdInput, IdString, InputSchema, Rupees, Trimmed, UtcDateTime, required

REASONS_TEXT = "damaged, defective, wrong or missing"
STEPS = ("approved", "rejected", "received", "refunded")


# A book bought inside a kit: the kit's order line (`lineId` of the order's kit line). Without it a line means
# the book's own order line, else the one kit line holding the book (product §7.10).
def _kit_line():
    return IdInput(attribute="kit_line", load_default=None, allow_none=True, error_messages={"invalid": "Unknown kit line."})


class ReturnLineInput(InputSchema):
    book = IdInput(required=True, error_messages={**required("Each line needs a book."), "invalid": "Unknown book."})
    kitLine = _kit_line()
    quantity = fields.Integer(strict=True, required=True, validate=validate.Range(
        min=1, max=1000, error="Quantity must be at least 1."), error_messages={
        **required("Each line needs a quantity."), "invalid": "Quantity must be a whole number."})
    reason = fields.String(required=True, validate=validate.OneOf(
        RETURN_REASONS, error=f"A return is accepted for {REASONS_TEXT} items only."),
        error_messages=required(f"Give a reason: {REASONS_TEXT}."))


class RefundToInput(InputSchema):
    """Where a cash-on-delivery refund goes: {upi} or {accountNumber, ifsc, holder} (checked by the service)."""

    upi = Trimmed(max_length=100, load_default=None, allow_none=True)
    accountNumber = Trimmed(attribute="account_number", max_length=30, load_default=None, allow_none=True)
    ifsc = Trimmed(max_length=20, load_default=None, allow_none=True)
    holder = Trimmed(max_length=100, load_default=None, allow_none=True)


class ReturnInputSchema(InputSchema):
    """POST /api/orders/{id}/returns."""

    lines = fields.List(fields.Nested(ReturnLineInput), required=True,
                        error_messages=required("Choose the books to return."),
                        validate=validate.Length(min=1, max=20, error="Choose between 1 and 20 books to return."))
    note = Trimmed(max_length=500, load_default="")
    refundTo = fields.Nested(RefundToInput, attribute="refund_to", load_default=None, allow_none=True)


class ReturnPhotoInputSchema(InputSchema):
    """POST /api/orders/{id}/returns/{returnId}/photos: one photo as a data URL (JPEG, PNG or WebP, 5 MB)."""

    photo = fields.String(required=True, error_messages=required("Choose a photo."))


class ResaleableInput(InputSchema):
    book = IdInput(required=True, error_messages={**required("Each line needs a book."), "invalid": "Unknown book."})
    kitLine = _kit_line()
    resaleable = fields.Boolean(required=True, error_messages=required("Say whether the copies can be sold again."))


class ReturnUpdateSchema(InputSchema):
    """PUT /api/admin/returns/{id}: one step. approved needs `method`; rejected needs `note` (the reason);
    received takes `lines: [{book, kitLine?, resaleable}]` (copies not named are not resaleable); refunded of a
    cash-on-delivery order needs `payoutReference`."""

    status = fields.String(required=True, error_messages=required("Status is required."), validate=validate.OneOf(
        STEPS, error="Status must be one of: " + ", ".join(STEPS) + "."))
    note = Trimmed(max_length=500, load_default="")
    method = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(
        ("pickup", "self-ship"), error="Method must be pickup or self-ship."))
    lines = fields.List(fields.Nested(ResaleableInput), load_default=None, allow_none=True,
                        validate=validate.Length(max=20))
    payoutReference = Trimmed(attribute="payout_reference", max_length=60, load_default=None, allow_none=True)

    @post_load
    def method_as_stored(self, data, **_kwargs):
        if data.get("method") == "self-ship":
            data["method"] = "self_ship"
        return data

    @validates_schema
    def one_mark_per_book(self, data, **_kwargs):
        books = [(mark["book"], mark.get("kit_line")) for mark in data.get("lines") or []]
        if len(books) != len(set(books)):
            raise ValidationError("Each book may appear only once.", "lines")


class ReturnLineSchema(Schema):
    book = IdString(attribute="returned_book_id")
    # A book bought inside a kit: the kit's order line (its `lineId`); null for a book's own line. The title
    # then says the kit: "Physics Part 1 (from JEE Main Kit)".
    kitLine = fields.Function(lambda line: str(line.order_line_id) if line.book_id is not None else None,
                              allow_none=True)
    title = fields.String()
    quantity = fields.Integer()
    reason = fields.String()
    resaleable = fields.Boolean(allow_none=True)


def _method(request) -> str | None:
    return request.method.replace("_", "-") if request.method else None


class ReturnSchema(Schema):
    """A return as its shopper sees it (the refund's destination masked)."""

    _id = fields.String(attribute="public_id")
    status = fields.String()
    lines = fields.List(fields.Nested(ReturnLineSchema))
    note = fields.String()
    method = fields.Function(_method, allow_none=True)
    adminNote = fields.String(attribute="admin_note")
    refundAmount = Rupees(attribute="refund_paise")
    shippingDeducted = Rupees(attribute="shipping_deducted_paise")
    refundRoute = fields.String(attribute="refund_route")
    refundTo = fields.String(attribute="refund_to_masked")
    payoutReference = fields.String(attribute="payout_reference", allow_none=True)
    photos = fields.Function(lambda request: [
        {"_id": str(photo.id), "url": f"/api/orders/{request.order.public_id}/returns/{request.public_id}/photos/{photo.id}"}
        for photo in request.photos])
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")
    refundedAt = UtcDateTime(attribute="refunded_at", allow_none=True)


class AdminReturnSchema(ReturnSchema):
    """A return for the administrator: the order, and the account details for the payout until it is made."""

    order = fields.Function(lambda request: {
        "_id": request.order.public_id, "orderNumber": request.order.order_number,
        "paymentMethod": request.order.payment_method, "email": request.order.email,
        "name": f"{request.order.first_name} {request.order.last_name}"})
    refundDetails = fields.Function(lambda request: {
        "upi": request.refund_upi, "accountNumber": request.refund_account, "ifsc": request.refund_ifsc,
        "holder": request.refund_holder} if (request.refund_upi or request.refund_account) else None, allow_none=True)
    refundError = fields.String(attribute="refund_error")
    photos = fields.Function(lambda request: [
        {"_id": str(photo.id), "url": f"/api/admin/returns/{request.public_id}/photos/{photo.id}"}
        for photo in request.photos])


class ReturnReplySchema(SuccessSchema):
    returnRequest = fields.Nested(ReturnSchema, attribute="return_request")


class AdminReturnReplySchema(SuccessSchema):
    returnRequest = fields.Nested(AdminReturnSchema, attribute="return_request")


class AdminReturnListReplySchema(ReplySchema):
    returns = fields.List(fields.Nested(AdminReturnSchema))
    totalReturns = fields.Integer()
    pagination = fields.Nested(PaginationSchema)


class ReturnFilterSchema(PageQuerySchema):
    status = fields.String(load_default=None, validate=validate.OneOf(
        RETURN_STATUSES, error="Status must be one of: " + ", ".join(RETURN_STATUSES) + "."))
