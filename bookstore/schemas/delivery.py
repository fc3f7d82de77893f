"""Shapes of delivery to a PIN and of the shop settings behind it (money in rupees, dates ISO, camelCase)."""
import re
from urllib.parse import urlsplit

from marshmallow import RAISE, Schema, ValidationError, fields, pre_dump, post_load, validate, validates_schema

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore.schemas.fields import Gstin, InputSchema, PartialUpdate, Rupees, Trimmed, WholeNumber, with_pin_pattern
from bookstore.services import pin_directory
from bookstore.services.delivery import PIN_MESSAGE, ZONES

MAX_LISTED_PINS = 2000
MAX_HOLIDAYS = 366
MAX_BUSINESS_DAYS = 30
MAX_ZONE_SHIPPING_PAISE = 100000  # ₹1,000: a zone's fee above it is a typing slip, not a courier's rate
_CUTOFF = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")
# A phone number as shoppers dial it: +91 80 4000 1234, 080-40001234, 1800 123 4567.
_PHONE = re.compile(r"^\+?\d[\d \-]{7,18}\d$")
# The social platforms the footer links to, and the hosts a profile on each lives at.
SOCIAL_PLATFORMS = {
    "facebook": ("facebook.com", "www.facebook.com", "m.facebook.com"),
    "instagram": ("instagram.com", "www.instagram.com"),
    "x": ("x.com", "www.x.com", "twitter.com", "www.twitter.com"),
    "youtube": ("youtube.com", "www.youtube.com", "m.youtube.com"),
}


class Pin(fields.String):
    """A PIN code: 6 digits, the first not 0; spaces are dropped ('560 001' is 560001)."""

    default_error_messages = {"invalid_pin": PIN_MESSAGE, "invalid": PIN_MESSAGE}

    def __init__(self, **kwargs):
        super().__init__(**with_pin_pattern(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        pin = pin_directory.normalise(super()._deserialize(value, attr, data, **kwargs))
        if pin is None:
            raise self.make_error("invalid_pin")
        return pin


class StrictBoolean(fields.Boolean):
    """JSON true or false only (not "yes", 1 or "on")."""

    default_error_messages = {"invalid": "Must be true or false."}

    def _deserialize(self, value, attr, data, **kwargs):
        # 1 == True in Python, so a truthy set would let 1 and 0 through.
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class IsoDate(fields.Date):
    """A calendar date, kept as ISO text ('2026-12-25') in and out."""

    def _serialize(self, value, attr, obj, **kwargs):
        return value if isinstance(value, str) or value is None else value.isoformat()

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).isoformat()


# ------------------------------------------------------------------ GET /api/delivery/{pin}

class PinPathSchema(InputSchema):
    pin = Pin(required=True, metadata={"description": "6 digits, first not 0; spaces are ignored", "example": "560001"})


class DeliveryDatesSchema(Schema):
    earliest = fields.Date(data_key="from", metadata={"description": "earliest delivery day (ISO date)"})
    latest = fields.Date(data_key="to", metadata={"description": "latest delivery day (ISO date)"})


class DeliveryReplySchema(ReplySchema):
    """What the shop can say about delivering to a PIN; an unknown PIN is `serviceable: false`, not an error."""

    pin = fields.String()
    city = fields.String(allow_none=True, metadata={"description": "the best name of the place"})
    district = fields.String(allow_none=True)
    state = fields.String(allow_none=True, metadata={"description": "official name, as the checkout lists it"})
    serviceable = fields.Boolean()
    zone = fields.String(allow_none=True, validate=validate.OneOf(ZONES))
    cod = fields.Boolean(metadata={"description": "cash on delivery offered to this PIN"})
    codLimit = Rupees(attribute="cod_limit_paise", allow_none=True,
                      metadata={"description": "largest cash-on-delivery order total, in rupees (null without COD)"})
    codFee = Rupees(attribute="cod_fee_paise", allow_none=True,
                    metadata={"description": "cash-on-delivery fee in rupees (null without COD)"})
    shippingFee = Rupees(attribute="shipping_paise", allow_none=True, metadata={
        "description": "shipping for an order to this PIN below the free-shipping threshold, in rupees: its "
                       "zone's fee, else the shop's flat fee (null where the shop does not deliver)"})
    estimate = fields.Nested(DeliveryDatesSchema, allow_none=True)
    message = fields.String()

    @pre_dump
    def flatten(self, answer, **_kwargs):
        """services.delivery.Estimate -> the reply's fields."""
        place = answer.place
        return {
            "pin": answer.pin, "city": place and place.city, "district": place and place.district,
            "state": place and place.state, "serviceable": answer.serviceable, "zone": answer.zone,
            "cod": answer.cod, "cod_limit_paise": answer.cod_limit_paise, "cod_fee_paise": answer.cod_fee_paise,
            "shipping_paise": answer.shipping_paise,
            "estimate": {"earliest": answer.earliest, "latest": answer.latest} if answer.earliest else None,
            "message": answer.message,
        }


# ------------------------------------------------------------------ /api/admin/shop-settings

class ZoneRuleSchema(InputSchema):
    """One zone's rule, sent whole: business days, cash on delivery and its shipping fee."""

    class Meta:
        unknown = RAISE

    minDays = WholeNumber(attribute="min_days", required=True, validate=validate.Range(
        min=0, max=MAX_BUSINESS_DAYS, error=f"Must be between 0 and {MAX_BUSINESS_DAYS} business days."))
    maxDays = WholeNumber(attribute="max_days", required=True, validate=validate.Range(
        min=0, max=MAX_BUSINESS_DAYS, error=f"Must be between 0 and {MAX_BUSINESS_DAYS} business days."))
    cod = StrictBoolean(required=True, metadata={"description": "cash on delivery offered in this zone"})
    shippingFee = Rupees(attribute="shipping_paise", allow_none=True, load_default=None, validate=validate.Range(
        min=0, max=MAX_ZONE_SHIPPING_PAISE, error="Must be between 0 and 1,000 rupees."), metadata={
        "description": "shipping per order to this zone, rupees; null or absent: the shop's shippingFee"})

    @validates_schema
    def min_before_max(self, data, **_kwargs):
        if "min_days" in data and "max_days" in data and data["min_days"] > data["max_days"]:
            raise ValidationError("Must be at least minDays.", "maxDays")


class ContactEmail(Trimmed):
    """An e-mail address (lower-cased), or empty (none shown)."""

    _check = validate.Email(error="Enter a valid e-mail address.")

    def __init__(self, **kwargs):
        super().__init__(max_length=254, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs).lower()
        return self._check(text) if text else text


class ContactPhone(Trimmed):
    """A phone number with digits, spaces, dashes and a leading +, or empty (none shown)."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if text and not _PHONE.match(text):
            raise ValidationError("Enter a phone number of digits, like +91 80 4000 1234.")
        return text


class ProfileUrl(Trimmed):
    """The address of the shop's own profile on one platform (https, the platform's host, a path), or empty."""

    def __init__(self, platform: str, **kwargs):
        self.platform = platform
        super().__init__(max_length=300, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not text:
            return text
        parts = urlsplit(text)
        if parts.scheme != "https" or (parts.hostname or "") not in SOCIAL_PLATFORMS[self.platform]:
            raise ValidationError(f"Must be an https:// address on {SOCIAL_PLATFORMS[self.platform][0]}.")
        if parts.path.strip("/") == "":
            raise ValidationError("Must be the shop's own page, not the platform's home page.")
        return text


class SocialLinksSchema(InputSchema):
    """The shop's profiles, one address per platform; an empty one is removed (and not shown)."""

    class Meta:
        unknown = RAISE

    facebook = ProfileUrl("facebook")
    instagram = ProfileUrl("instagram")
    x = ProfileUrl("x")
    youtube = ProfileUrl("youtube")

    @post_load
    def without_empty(self, data, **_kwargs):
        return {platform: url for platform, url in data.items() if url}


class ZonesSchema(InputSchema):
    """Business days and COD per zone; a PUT may name only the zones it changes."""

    class Meta:
        unknown = RAISE

    sameCity = fields.Nested(ZoneRuleSchema, metadata={"description": "the dispatch PIN's metro, else its district"})
    sameState = fields.Nested(ZoneRuleSchema, metadata={"description": "the dispatch PIN's state"})
    metro = fields.Nested(ZoneRuleSchema, metadata={
        "description": "metro to metro: Delhi, Mumbai, Kolkata, Chennai, Bengaluru, Hyderabad"})
    restOfIndia = fields.Nested(ZoneRuleSchema)
    special = fields.Nested(ZoneRuleSchema, metadata={
        "description": "to or from the north-east, Jammu & Kashmir, Ladakh, Andaman & Nicobar, Lakshadweep"})


class ShopSettingsSchema(PartialUpdate, InputSchema):
    """The shop's delivery, fee and COD rules. In a PUT every field is optional: fields not sent are kept."""

    class Meta:
        unknown = RAISE

    dispatchPin = Pin(attribute="dispatch_pin", metadata={"description": "where parcels leave from"})
    dispatchCutoff = fields.String(attribute="dispatch_cutoff", validate=validate.Regexp(
        _CUTOFF, error="Must be a time like 14:00 (24-hour, India time)."),
        metadata={"description": "orders placed before this time (IST) on a working day leave that day"})
    holidays = fields.List(IsoDate(), validate=validate.Length(
        max=MAX_HOLIDAYS, error=f"At most {MAX_HOLIDAYS} holidays."),
        metadata={"description": "days (ISO dates) with no dispatch or delivery, besides Sundays"})
    zones = fields.Nested(ZonesSchema)
    unserviceablePins = fields.List(Pin(), attribute="unserviceable_pins", validate=validate.Length(
        max=MAX_LISTED_PINS, error=f"At most {MAX_LISTED_PINS} PINs."),
        metadata={"description": "PINs the shop does not deliver to"})
    codPins = fields.Dict(keys=Pin(), values=StrictBoolean(), attribute="cod_pins", validate=validate.Length(
        max=MAX_LISTED_PINS, error=f"At most {MAX_LISTED_PINS} PINs."),
        metadata={"description": "PIN -> true/false: cash on delivery on or off there whatever its zone says"})
    codLimit = Rupees(attribute="cod_limit_paise", metadata={"description": "largest COD order total, rupees"})
    codFee = Rupees(attribute="cod_fee_paise", metadata={"description": "fee added to a COD order, rupees"})
    shippingFee = Rupees(attribute="shipping_paise", metadata={"description": "shipping per order, rupees"})
    freeShippingThreshold = Rupees(attribute="free_shipping_threshold_paise", allow_none=True, metadata={
        "description": "items total (rupees) from which shipping is free; null: never"})
    openCodOrdersPerContact = WholeNumber(attribute="open_cod_orders_per_contact", validate=validate.Range(
        min=0, max=100, error="Must be between 0 and 100."),
        metadata={"description": "COD orders on their way at once per phone and per e-mail"})
    maxQuantityPerLine = WholeNumber(attribute="max_quantity_per_line", validate=validate.Range(
        min=1, max=100, error="Must be between 1 and 100."), metadata={"description": "copies of a book per order"})
    unpaidCopiesPerBuyer = WholeNumber(attribute="unpaid_copies_per_buyer", validate=validate.Range(
        min=1, max=10000, error="Must be between 1 and 10000."),
        metadata={"description": "copies unpaid orders may hold per IP and per browser"})
    largeCodCopies = WholeNumber(attribute="large_cod_copies", validate=validate.Range(
        min=1, max=10000, error="Must be between 1 and 10000."),
        metadata={"description": "a cash-on-delivery order of more printed copies is cancelled unless the shop "
                                 "confirms it (moves it to processing) within LARGE_COD_HOLD_HOURS"})
    contactEmail = ContactEmail(attribute="contact_email", metadata={
        "description": "e-mail address shoppers write to (footer, contact page); empty: not shown"})
    contactPhone = ContactPhone(attribute="contact_phone", max_length=30, metadata={
        "description": "phone number shoppers call; empty: not shown"})
    contactHours = Trimmed(attribute="contact_hours", max_length=100, metadata={
        "description": "when the phone is answered, e.g. Monday to Saturday, 9 AM to 6 PM IST; empty: not shown"})
    socialLinks = fields.Nested(SocialLinksSchema, attribute="social_links", metadata={
        "description": "platform (facebook, instagram, x, youtube) -> the shop's profile address; sent whole"})
    sellerName = Trimmed(attribute="seller_name", max_length=100, min_length=2,
                         metadata={"description": "the seller's name on bills of supply and in e-mail footers"})
    sellerAddress = Trimmed(attribute="seller_address", max_length=300, min_length=10,
                            metadata={"description": "the shop's postal address: on bills, in e-mail footers "
                                                     "and on the contact page"})
    sellerGstin = Gstin(attribute="seller_gstin", metadata={
        "description": "the seller's GSTIN on bills of supply; empty: not registered"})

    @post_load
    def stored_form(self, data, **_kwargs):
        """Lists sorted without repeats, so the same rules always compare (and audit) alike."""
        for key in ("holidays", "unserviceable_pins"):
            if key in data:
                data[key] = sorted(set(data[key]))
        if "cod_pins" in data:
            data["cod_pins"] = dict(sorted(data["cod_pins"].items()))
        return data


class ShopSettingsReplySchema(SuccessSchema):
    settings = fields.Nested(ShopSettingsSchema)

