"""Shipment shapes: the Ship request, tracking events in, couriers, and shipments with their events out."""
from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore.models import AGGREGATORS, SHIPMENT_EVENTS
from bookstore.schemas.fields import (IdInput, IdString, InputSchema, PartialUpdate, Trimmed, UtcDateTime, UtcInstant,
                                      WholeNumber, required)

MAX_PACKAGES = 50


def _http_url(value: str, label: str) -> None:
    if value and not value.lower().startswith(("https://", "http://")):
        raise ValidationError(f"{label} must be a web address starting with https:// or http://.")


class ShipmentLineInput(InputSchema):
    """Copies of one order line, named by its book (one line per book); no quantity: every copy left."""

    book = IdInput(required=True, error_messages={**required("Each line needs a book."), "invalid": "Unknown book."})
    quantity = WholeNumber(load_default=None, allow_none=True,
                           validate=validate.Range(min=1, max=1000, error="Quantity must be between 1 and 1000."))


class ShipmentInputSchema(InputSchema):
    """POST /api/admin/orders/{id}/shipments: `lines` omitted ships every copy not yet shipped."""

    aggregator = fields.String(load_default="manual", validate=validate.OneOf(
        AGGREGATORS, error="Aggregator must be manual or shiprocket."))
    courier = Trimmed(max_length=60, load_default="")
    awb = Trimmed(max_length=40, load_default="")
    trackingUrl = Trimmed(attribute="tracking_url", max_length=500, load_default="")
    packages = WholeNumber(load_default=1, validate=validate.Range(
        min=1, max=MAX_PACKAGES, error=f"Packages must be between 1 and {MAX_PACKAGES}."))
    lines = fields.List(fields.Nested(ShipmentLineInput), load_default=None, allow_none=True,
                        validate=validate.Length(min=1, max=20, error="Choose between 1 and 20 lines to ship."))

    @validates("trackingUrl")
    def tracking_url_is_web(self, value, **_kwargs):
        _http_url(value, "Tracking URL")

    @validates("awb")
    def awb_characters(self, value, **_kwargs):
        if value and not all(ch.isascii() and (ch.isalnum() or ch in "-/") for ch in value):
            raise ValidationError("AWB number may hold only letters, digits, - and /.")

    @validates_schema
    def manual_needs_courier_and_awb(self, data, **_kwargs):
        """An AWB typed by hand is required (Shiprocket assigns its own); each book once."""
        if data.get("aggregator", "manual") == "manual":
            errors = {}
            if not data.get("courier"):
                errors["courier"] = ["Courier is required."]
            if not data.get("awb"):
                errors["awb"] = ["AWB number is required."]
            if errors:
                raise ValidationError(errors)
        books = [item["book"] for item in data.get("lines") or []]
        if len(books) != len(set(books)):
            raise ValidationError("Each book may appear only once.", "lines")


class ShipmentEventInputSchema(InputSchema):
    """POST /api/admin/orders/{id}/shipments/{sid}/events: a tracking event typed by an administrator."""

    status = fields.String(required=True, error_messages=required("Status is required."),
                           validate=validate.OneOf(SHIPMENT_EVENTS, error="Status must be one of: "
                                                   + ", ".join(SHIPMENT_EVENTS) + "."))
    at = UtcInstant(load_default=None, allow_none=True,
                    error_messages={"invalid": "Time must be an ISO date and time with its offset.",
                                    "invalid_awareness": "Time must carry its offset (Z or +05:30)."})
    location = Trimmed(max_length=120, load_default="")
    note = Trimmed(max_length=300, load_default="")


class ShipmentEventSchema(Schema):
    status = fields.String()
    at = UtcDateTime()
    location = fields.String()
    note = fields.String()


class ShipmentLineSchema(Schema):
    # A kit's line names its kit instead of a book (null book).
    book = fields.Function(lambda part: str(part.order_line.book_id) if part.order_line.book_id else None,
                           allow_none=True)
    kit = fields.Function(lambda part: str(part.order_line.kit_id) if part.order_line.kit_id else None,
                          allow_none=True)
    title = fields.Function(lambda part: part.order_line.title)
    quantity = fields.Integer()


class ShipmentSchema(Schema):
    """A parcel as the shopper sees it: courier, AWB, tracking link, what is in it and its events."""

    _id = IdString(attribute="id")
    courier = fields.String()
    awb = fields.String(allow_none=True, metadata={"description": "null while Shiprocket is booking the parcel"})
    trackingUrl = fields.String(attribute="tracking_url")
    packages = fields.Integer()
    status = fields.String()
    shippedAt = UtcDateTime(attribute="shipped_at")
    receivedAt = UtcDateTime(attribute="received_at", allow_none=True)
    lines = fields.List(fields.Nested(ShipmentLineSchema))
    events = fields.List(fields.Nested(ShipmentEventSchema))


class AdminShipmentEventSchema(ShipmentEventSchema):
    source = fields.String()


class AdminShipmentSchema(ShipmentSchema):
    """With how it was booked: the aggregator, Shiprocket's ids, label and pickup."""

    aggregator = fields.String()
    providerOrderId = fields.String(attribute="provider_order_id")
    providerShipmentId = fields.String(attribute="provider_shipment_id")
    labelUrl = fields.String(attribute="label_url")
    pickupToken = fields.String(attribute="pickup_token")
    shippedBy = fields.String(attribute="shipped_by")
    events = fields.List(fields.Nested(AdminShipmentEventSchema))
    # The Shiprocket booking job (status `booking` / `booking_failed`): its tries and the last failure's reason.
    bookingAttempts = fields.Integer(attribute="booking_attempts")
    bookingError = fields.String(attribute="booking_error")


class CourierSchema(Schema):
    _id = IdString(attribute="id")
    name = fields.String()
    trackingUrlTemplate = fields.String(attribute="tracking_url_template")
    active = fields.Boolean()


class CourierListReplySchema(ReplySchema):
    couriers = fields.List(fields.Nested(CourierSchema))
    shiprocket = fields.Boolean(metadata={"description": "whether Shiprocket is set up (SHIPROCKET_EMAIL/PASSWORD)"})


class CourierReplySchema(SuccessSchema):
    courier = fields.Nested(CourierSchema)


def _template(value: str) -> None:
    _http_url(value, "The tracking address")
    if value and "{awb}" not in value:
        raise ValidationError("The tracking address must contain {awb} where the AWB number goes.")


class CourierInputSchema(InputSchema):
    name = Trimmed(required=True, max_length=60, error_messages=required("Courier name is required."),
                   blank_message="Courier name is required.")
    trackingUrlTemplate = Trimmed(attribute="tracking_url_template", max_length=300)
    active = fields.Boolean()

    @validates("trackingUrlTemplate")
    def template_names_awb(self, value, **_kwargs):
        _template(value)


class CourierUpdateSchema(PartialUpdate, CourierInputSchema):
    name = Trimmed(max_length=60, required=False)

    @validates("name")
    def not_blank(self, value, **_kwargs):
        if not value:
            raise ValidationError("Courier name is required.")


class TrackingWebhookReplySchema(SuccessSchema):
    """The shop's reply: `success` and a message."""
