"""The shop's public constants (GET /api/shop): the one place the client learns fees, limits and lists."""
from marshmallow import Schema, fields, pre_dump

from bookstore.schemas.common import ReplySchema
from bookstore.schemas.book import FORMATS, LANGUAGES
from bookstore.schemas.fields import Rupees
from bookstore.schemas.order import MAX_LINES, PIN_PATTERN
from bookstore.services import images
from bookstore.services.india import STATES_AND_UNION_TERRITORIES

# The cover types the admin form may send (data URL media types), in the order the form names them.
COVER_TYPES = ("image/jpeg", "image/png", "image/webp")


class CoverLimitsSchema(Schema):
    maxBytes = fields.Integer(metadata={"description": "largest cover file the shop accepts, in bytes"})
    maxSide = fields.Integer(metadata={"description": "largest width or height of a cover, in pixels"})
    types = fields.List(fields.String(), metadata={"description": "media types a cover may be"})


class ShopContactSchema(Schema):
    email = fields.String()
    phone = fields.String()
    address = fields.String()
    hours = fields.String()


class ShopReplySchema(ReplySchema):
    """Fees and limits the server enforces, and the lists the forms offer (the client keeps no copy)."""

    shippingFee = Rupees(attribute="shipping_paise", metadata={"description": "shipping per order, rupees"})
    freeShippingThreshold = Rupees(attribute="free_shipping_threshold_paise", allow_none=True, metadata={
        "description": "items total (rupees) from which shipping is free; null: never"})
    zoneShippingFees = fields.Dict(keys=fields.String(), values=Rupees(), attribute="zone_shipping_fees", metadata={
        "description": "delivery zone -> its own shipping fee in rupees, for the zones that have one (the others, "
                       "and PINs outside the directory, pay shippingFee); the quote gives the fee for a PIN"})
    codLimit = Rupees(attribute="cod_limit_paise", metadata={"description": "largest cash-on-delivery total, rupees"})
    codFee = Rupees(attribute="cod_fee_paise", metadata={"description": "fee added to a cash-on-delivery order, rupees"})
    maxLinesPerOrder = fields.Integer(attribute="max_lines", metadata={"description": "different books in one order"})
    maxQuantityPerLine = fields.Integer(attribute="max_quantity_per_line",
                                        metadata={"description": "copies of one book in one order"})
    pinPattern = fields.String(attribute="pin_pattern", metadata={
        "description": "regular expression a PIN code matches (6 digits, the first not 0)"})
    states = fields.List(fields.String(), metadata={
        "description": "states and union territories, as the shipping address must name them"})
    formats = fields.List(fields.String(), metadata={"description": "book formats"})
    languages = fields.List(fields.String(), metadata={"description": "languages the catalogue filter offers"})
    coverImage = fields.Nested(CoverLimitsSchema, attribute="cover_image")
    contact = fields.Nested(ShopContactSchema, metadata={"description": "how to reach the shop; empty values: not shown"})
    socialLinks = fields.Dict(keys=fields.String(), values=fields.String(), attribute="social_links", metadata={
        "description": "platform (facebook, instagram, x, youtube) -> the shop's profile, only those set"})

    @pre_dump
    def with_constants(self, shop_rules, **_kwargs):
        """services.delivery.Rules (what an admin set) plus the rules fixed in code."""
        return {
            "shipping_paise": shop_rules.shipping_paise,
            "free_shipping_threshold_paise": shop_rules.free_shipping_threshold_paise,
            "zone_shipping_fees": {name: rule.shipping_paise for name, rule in shop_rules.zones.items()
                                   if rule.shipping_paise is not None},
            "cod_limit_paise": shop_rules.cod_limit_paise,
            "cod_fee_paise": shop_rules.cod_fee_paise,
            "max_lines": MAX_LINES,
            "max_quantity_per_line": shop_rules.max_quantity_per_line,
            "pin_pattern": PIN_PATTERN,
            "states": list(STATES_AND_UNION_TERRITORIES),
            "formats": list(FORMATS),
            "languages": list(LANGUAGES),
            "cover_image": {"maxBytes": images.MAX_BYTES, "maxSide": images.MAX_SIDE, "types": list(COVER_TYPES)},
            "contact": {"email": shop_rules.contact_email, "phone": shop_rules.contact_phone,
                        "address": shop_rules.seller_address, "hours": shop_rules.contact_hours},
            "social_links": dict(shop_rules.social_links),
        }
