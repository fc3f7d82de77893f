"""Order shapes: the order payload in (product §5), the order with lines, address and history out."""
import re

from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validate, validates, validates_schema

from bookstore.models import ADDRESS_TYPES, ORDER_STATUSES, PAYMENT_METHODS, parse_id
from bookstore.schemas.common import (AdminPageQuerySchema, PaginationSchema, ReplySchema, SuccessSchema,
                                      counted_pagination, search_param)
from bookstore.schemas.delivery import DeliveryDatesSchema
from bookstore.schemas.order_refund import AdminOrderRefundSchema, OrderRefundSchema
from bookstore.schemas.return_request import ReturnSchema
from bookstore.schemas.shipment import AdminShipmentSchema, ShipmentSchema
from bookstore.services import digital, order_links, orders, returns
from bookstore.services import refunds as refund_rules
from bookstore.schemas.fields import (Email, Gstin, IdInput, IdString, IndianMobile, IndianState, InputSchema, Rupees,
                                      Trimmed, UtcDateTime, required, required_text)

MAX_LINES = 20
MAX_QUANTITY = 1000  # far above any stock; keeps arithmetic and SQL integers small
PIN_PATTERN = r"^[1-9][0-9]{5}$"  # 6 digits, the first not 0 (product §5.2)
_PIN = re.compile(PIN_PATTERN)
TOO_MANY_LINES = "Cart has too many items. Please reduce the number of items."


class OrderItemInput(InputSchema):
    """One cart line: a book ({book, quantity}) or a kit ({kit, quantity}). Titles and prices sent with it are
    the client's copy and are ignored."""

    book = IdInput(load_default=None, error_messages={"invalid": "Unknown book."})
    kit = IdInput(load_default=None, error_messages={"invalid": "Unknown kit."})
    quantity = fields.Integer(
        strict=True, required=True, error_messages={**required("Each item needs a quantity."),
                                                    "invalid": "Quantity must be a whole number."},
        validate=validate.Range(min=1, max=MAX_QUANTITY, error=f"Quantity must be between 1 and {MAX_QUANTITY}."))

    @pre_load
    def accept_book_id_spellings(self, data, **_kwargs):
        """Older clients send the book as bookId or _id, or as the whole book object."""
        if isinstance(data, dict) and "book" not in data and "kit" not in data:
            for alias in ("bookId", "_id", "id"):
                if alias in data:
                    data = {**data, "book": data[alias]}
                    break
        if isinstance(data, dict) and isinstance(data.get("book"), dict):
            data = {**data, "book": data["book"].get("_id")}
        return data

    @validates_schema
    def book_or_kit(self, data, **_kwargs):
        if data.get("book") is None and data.get("kit") is None:
            raise ValidationError("Each item needs a book.", "book")
        if data.get("book") is not None and data.get("kit") is not None:
            raise ValidationError("An item is a book or a kit, not both.", "kit")


class AddressFieldsInput(InputSchema):
    """A delivery address without the e-mail: checkout's and the address book's fields and checks."""

    firstName = required_text("First name", 100, attribute="first_name")
    lastName = required_text("Last name", 100, attribute="last_name")
    phone = IndianMobile(required=True, error_messages=required("Phone is required."))
    address = required_text("Address", 300)
    landmark = Trimmed(max_length=200, load_default="")
    city = required_text("City", 100)
    state = IndianState(required=True, error_messages=required("State is required."))
    zipCode = required_text("PIN code", 10, attribute="zip_code", metadata={"pattern": r"^\s*[1-9][0-9]{5}\s*$"})
    country = Trimmed(max_length=40, load_default="India")
    addressType = fields.String(attribute="address_type", load_default="home",
                                validate=validate.OneOf(ADDRESS_TYPES, error="Address type must be home, work or other."))

    @validates("zipCode")
    def pin_code(self, value, **_kwargs):
        if not _PIN.match(value):
            raise ValidationError("PIN code must be 6 digits and cannot start with 0.")

    @validates("country")
    def india_only(self, value, **_kwargs):
        if value.lower() != "india":
            raise ValidationError("We deliver within India only.")

    @post_load
    def country_as_written_on_orders(self, data, **_kwargs):
        """'india', 'INDIA' and 'India' are one country: orders store it once, as 'India'."""
        data["country"] = "India"
        return data


class ShippingAddressInput(AddressFieldsInput):
    email = Email(required=True, error_messages=required("E-mail is required."))


class CartLinesInput(InputSchema):
    """The lines of a cart and its coupon code: what an order and a quote both take."""

    orderItems = fields.List(
        fields.Nested(OrderItemInput), attribute="items", required=True,
        error_messages=required("Your cart is empty!"),
        validate=[validate.Length(min=1, error="Your cart is empty!"),
                  validate.Length(max=MAX_LINES, error=TOO_MANY_LINES)])
    couponCode = Trimmed(attribute="coupon_code", max_length=20, load_default=None, allow_none=True)

    # A collection hook runs before the per-object ones, and marshmallow runs hooks in name order, so
    # this comes before InputSchema's refuse_nul_characters walks every line.
    @pre_load(pass_collection=True)
    def count_lines_first(self, data, **_kwargs):
        """Too many lines are refused before any line is read: 300,000 of them took 5 s to validate."""
        items = data.get("orderItems") if isinstance(data, dict) else None
        if isinstance(items, list) and len(items) > MAX_LINES:
            raise ValidationError(TOO_MANY_LINES, "orderItems")
        return data

    @validates_schema
    def one_line_per_book(self, data, **_kwargs):
        for kind in ("book", "kit"):
            keys = [parse_id(item[kind]) or item[kind] for item in data.get("items", []) if item.get(kind) is not None]
            if len(keys) != len(set(keys)):
                raise ValidationError(f"Each {kind} may appear only once; change its quantity instead.", "orderItems")


# An order of e-books and audiobooks only needs no street (product §7.11): the schema lets these out and
# checkout asks for them when a line is printed.
STREET_FIELDS = ("address", "city", "state", "zipCode")


class PlaceOrderSchema(CartLinesInput):
    shippingAddress = fields.Nested(ShippingAddressInput(partial=STREET_FIELDS), attribute="address", required=True,
                                    error_messages=required("Shipping address is required."))
    paymentMethod = fields.String(
        attribute="payment_method", required=True, error_messages=required("Please select a payment method."),
        validate=validate.OneOf(PAYMENT_METHODS, error="Invalid payment method"))
    # The total the shopper saw; compared with the server's own, never used as the price.
    totalPrice = Rupees(attribute="client_total_paise", required=True,
                        error_messages=required("The order total is required."))
    # The shopper confirmed a state other than the one the PIN directory gives for the PIN.
    confirmedStateMismatch = fields.Boolean(attribute="confirmed_state_mismatch", load_default=False)
    # A business buyer's GSTIN, printed on the bill of supply.
    buyerGstin = Gstin(attribute="buyer_gstin", load_default="", allow_none=True)


class OrderLineBookSchema(Schema):
    book = IdString(attribute="book_id")
    title = fields.String()
    quantity = fields.Integer()


class OrderLineSchema(Schema):
    book = IdString(attribute="book_id", allow_none=True)
    # A kit's line: the kit, and the books it held when sold (copies per kit).
    kit = IdString(attribute="kit_id", allow_none=True)
    kitBooks = fields.List(fields.Nested(OrderLineBookSchema), attribute="kit_books")
    title = fields.String()
    name = fields.Function(lambda line: line.title)
    author = fields.String()
    imageUrl = fields.String(attribute="image_url", allow_none=True)
    image = fields.Function(lambda line: line.image_url)
    price = Rupees(attribute="unit_price_paise")
    quantity = fields.Integer()
    lineTotal = Rupees(attribute="line_total_paise")
    # The line's id (for its download), whether it is an e-book or audiobook, and its downloads left.
    lineId = IdString(attribute="id")
    digital = fields.Boolean()
    downloadsLeft = fields.Function(lambda line: digital.downloads_left(line))


class AddressFieldsSchema(Schema):
    """An address as replies show it: an order's shipping address and a saved one share these fields."""

    firstName = fields.String(attribute="first_name")
    lastName = fields.String(attribute="last_name")
    phone = fields.String()
    address = fields.String()
    landmark = fields.String()
    city = fields.String()
    state = fields.String()
    zipCode = fields.String(attribute="zip_code")
    country = fields.String()
    addressType = fields.String(attribute="address_type")


class ShippingAddressSchema(AddressFieldsSchema):
    email = fields.String()


class StatusChangeSchema(Schema):
    status = fields.String()
    at = UtcDateTime()
    by = fields.String()
    note = fields.String()


class _OrderStateSchema(Schema):
    """An order's identity and where it and its payment stand: the order's read and every order list open with
    these."""

    _id = fields.String(attribute="public_id")
    orderNumber = fields.String(attribute="order_number")
    status = fields.String()
    paymentStatus = fields.String(attribute="payment_status")
    paymentMethod = fields.String(attribute="payment_method")
    isPaid = fields.Function(lambda order: order.payment_status == "paid")


class OrderSchema(_OrderStateSchema):
    paidAt = UtcDateTime(attribute="paid_at", allow_none=True)
    paymentId = fields.String(attribute="razorpay_payment_id", allow_none=True)
    razorpayOrderId = fields.String(attribute="razorpay_order_id", allow_none=True)
    paymentExpiresAt = UtcDateTime(attribute="payment_expires_at", allow_none=True)
    # A large cash order waits for the shop's confirmation (checkout._confirm_by); confirmed or closed, no longer.
    confirmBy = fields.Function(
        lambda order: _iso(order.confirm_by) if order.status == "pending" else None, allow_none=True,
        metadata={"description": "a large cash-on-delivery order still pending: when it is cancelled unless the "
                                 "shop confirms it (moves it to processing) first; otherwise null"})
    orderItems = fields.List(fields.Nested(OrderLineSchema), attribute="lines")
    # Every line an e-book or audiobook: no address, no parcel; downloads open until downloadsUntil.
    digitalOnly = fields.Boolean(attribute="digital_only")
    downloadsUntil = UtcDateTime(attribute="downloads_until", allow_none=True)
    itemCount = fields.Integer(attribute="item_count")
    shippingAddress = fields.Function(lambda order: ShippingAddressSchema().dump(order))
    itemsPrice = Rupees(attribute="items_paise")
    discount = Rupees(attribute="discount_paise")
    couponCode = fields.String(attribute="coupon_code", allow_none=True)
    codFee = Rupees(attribute="cod_fee_paise")
    shippingPrice = Rupees(attribute="shipping_paise")
    taxPrice = Rupees(attribute="tax_paise")
    totalPrice = Rupees(attribute="total_paise")
    statusHistory = fields.List(fields.Nested(StatusChangeSchema), attribute="history")
    # The dates promised when the order was placed; null for a PIN the directory does not know.
    promisedDelivery = fields.Function(
        lambda order: DeliveryDatesSchema().dump(order.promised) if order.promised else None, allow_none=True,
        metadata={"description": "{from, to}: the delivery dates promised at placement (ISO dates), or null"})
    cancelledAt = UtcDateTime(attribute="cancelled_at", allow_none=True)
    canCancel = fields.Function(lambda order: orders.can_cancel(order), metadata={
        "description": "whether the shopper may cancel the order now (POST /api/orders/{id}/cancel): within 1 hour, "
                       "pending or processing, no parcel sent, no e-book downloaded, never delivered, no return"})
    # Parcels with courier, AWB, tracking link, lines and tracking events (product §7.8).
    # The shopper sees the parcels with a courier; one being booked or failed to book is the shop's business.
    shipments = fields.List(fields.Nested(ShipmentSchema), attribute="sent_shipments")
    buyerGstin = fields.String(attribute="buyer_gstin", allow_none=True)
    billNumber = fields.String(attribute="bill_number", allow_none=True, metadata={
        "description": "the bill of supply's serial number, once the order is paid or delivered"})
    billDue = fields.Boolean(attribute="bill_owed", metadata={
        "description": "true once the order has (or is owed) a bill of supply: GET /api/orders/{id}/bill answers"})
    link = fields.Function(lambda order: order_links.path(order), metadata={
        "description": "the order page with a signed, expiring token: opens without signing in"})
    billUrl = fields.Function(
        lambda order: order_links.bill_path(order) if order.bill_owed else None,
        allow_none=True, metadata={"description": "the bill's PDF with the order link's token, or null before it is due"})
    # Returns of the order (product §7.10), and what may still be returned until when.
    returns = fields.List(fields.Nested(ReturnSchema))
    returnableUntil = fields.Function(lambda order: _iso(returns.returnable_until(order)), allow_none=True, metadata={
        "description": "the last moment a return may be asked for (delivered orders), or null"})
    returnableLines = fields.Function(lambda order: [_returnable(line) for line in returns.returnable_lines(order)],
        metadata={"description": "[{book, quantity}]: copies that may still be returned now; a book inside a kit "
                                 "line also has kitLine (the kit line's lineId) and title (\"… (from <kit>)\")"})
    # Parcels that came back undelivered (RTO) and part refunds (product §6.6, §7.8).
    refunds = fields.List(fields.Nested(OrderRefundSchema))
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


def _returnable(line: dict) -> dict:
    reply = {"book": str(line["book"]), "quantity": line["quantity"]}
    if "kit_line" in line:
        reply.update(kitLine=str(line["kit_line"]), title=line["title"])
    return reply


def _iso(moment) -> str | None:
    return UtcDateTime()._serialize(moment, None, None) if moment else None


class OrderLookupQuerySchema(InputSchema):
    orderNumber = required_text("Order number", 20, attribute="order_number")
    email = Email(required=True, error_messages=required("E-mail is required."))


class OrderTokenQuerySchema(InputSchema):
    """`?token=` from an order e-mail's link: the order opens without signing in."""

    token = fields.String(load_default=None, validate=validate.Length(max=200, error="This order link is not valid."))


class StatusUpdateSchema(InputSchema):
    status = fields.String(required=True, error_messages=required("Status is required."),
                           validate=validate.OneOf(ORDER_STATUSES, error="Status must be one of: "
                                                   + ", ".join(ORDER_STATUSES) + "."))
    note = Trimmed(max_length=300, load_default="")


class QuoteInputSchema(CartLinesInput):
    """POST /api/cart/quote: the cart's lines, an optional coupon code and who is buying (for per-customer
    coupon rules)."""

    email = Email(load_default=None, allow_none=True)
    phone = IndianMobile(load_default=None, allow_none=True)
    # With a PIN, the quote says whether cash on delivery can be chosen (and why not).
    paymentMethod = fields.String(attribute="payment_method", load_default=None, allow_none=True,
                                  validate=validate.OneOf(PAYMENT_METHODS, error="Invalid payment method"))
    zipCode = fields.String(attribute="zip_code", load_default=None, allow_none=True,
                            validate=validate.Regexp(r"^[1-9][0-9]{5}$", error="PIN code must be 6 digits and cannot "
                                                                                "start with 0."))


class CashOnDeliverySchema(Schema):
    available = fields.Boolean()
    reason = fields.String(allow_none=True)


class QuoteLineSchema(Schema):
    book = fields.String(allow_none=True)
    kit = fields.String(allow_none=True)
    title = fields.String()
    price = fields.Float()
    quantity = fields.Integer()
    digital = fields.Boolean()


class CouponVerdictSchema(Schema):
    code = fields.String()
    applied = fields.Boolean()
    discount = fields.Float()
    reason = fields.String(allow_none=True)


class QuoteReplySchema(ReplySchema):
    orderItems = fields.List(fields.Nested(QuoteLineSchema))
    itemsPrice = fields.Float()
    discount = fields.Float()
    shippingPrice = fields.Float()
    codFee = fields.Float()
    taxPrice = fields.Float()
    totalPrice = fields.Float()
    cashOnDelivery = fields.Nested(CashOnDeliverySchema)
    coupon = fields.Nested(CouponVerdictSchema, allow_none=True)
    digitalOnly = fields.Boolean()


class DownloadReplySchema(ReplySchema):
    url = fields.String(metadata={"description": "GET it within expiresIn seconds to receive the file"})
    expiresIn = fields.Integer()


class OrderReplySchema(SuccessSchema):
    order = fields.Nested(OrderSchema)


class _OrderRowSchema(_OrderStateSchema):
    """What every order list shows of an order: its own row plus services/orders.summaries' copy count."""

    itemCount = fields.Integer(attribute="item_count")
    totalPrice = Rupees(attribute="total_paise")


class OrderSummarySchema(_OrderRowSchema):
    """An order in My Orders (as BookCardSchema is a book in a grid): what the list shows, from the order's
    row and services/orders.summaries; the order itself (GET /api/orders/{id}) has the lines, history and
    parcels."""

    promisedDelivery = OrderSchema._declared_fields["promisedDelivery"]
    billNumber = fields.String(attribute="bill_number", allow_none=True)
    billDue = fields.Boolean(attribute="bill_owed")
    billUrl = OrderSchema._declared_fields["billUrl"]
    link = OrderSchema._declared_fields["link"]
    canCancel = fields.Boolean(attribute="can_cancel", metadata={
        "description": "whether the shopper may cancel the order now, as the order's own canCancel"})
    createdAt = UtcDateTime(attribute="created_at")


class OrderListReplySchema(ReplySchema):
    orders = fields.List(fields.Nested(OrderSummarySchema))
    totalOrders = fields.Integer()
    totalPages = fields.Integer()
    pagination = fields.Nested(PaginationSchema)


class OrderFilterSchema(InputSchema):
    status = fields.String(validate=validate.OneOf(ORDER_STATUSES, error="Unknown status."))
    search = search_param(100)


class AdminOrderQuerySchema(AdminPageQuerySchema, OrderFilterSchema):
    """A page of the admin's order list, of one status and matching a search."""


class AdminOrderSchema(OrderSchema):
    user = fields.Function(lambda order: {"firstName": order.first_name, "lastName": order.last_name})
    totalAmount = Rupees(attribute="total_paise", dump_only=True)  # the same figure as totalPrice
    shipments = fields.List(fields.Nested(AdminShipmentSchema))
    refunds = fields.List(fields.Nested(AdminOrderRefundSchema))
    refundable = fields.Function(lambda order: Rupees()._serialize(refund_rules.refundable(order), None, None),
                                 metadata={"type": "number", "description": "rupees the order may still refund: "
                                                                            "paid less every refund made or pending"})


class AdminOrderSummarySchema(_OrderRowSchema):
    """An order in the admin's orders list and the dashboard's newest orders: the columns they show and what
    the status menu needs (whether a parcel went: such an order cannot be cancelled)."""

    totalAmount = Rupees(attribute="total_paise", dump_only=True)
    user = AdminOrderSchema._declared_fields["user"]
    shippingAddress = OrderSchema._declared_fields["shippingAddress"]
    hasParcels = fields.Boolean(attribute="has_parcels", metadata={
        "description": "a parcel was sent or is being booked (the order can no longer be cancelled)"})
    billNumber = fields.String(attribute="bill_number", allow_none=True)
    createdAt = UtcDateTime(attribute="created_at")


class AdminOrderListReplySchema(ReplySchema):
    orders = fields.List(fields.Nested(AdminOrderSummarySchema))
    pagination = counted_pagination("AdminPaginationSchema", "totalOrders")


class AdminOrderReplySchema(SuccessSchema):
    order = fields.Nested(AdminOrderSchema)


class ShipReplySchema(AdminOrderReplySchema):
    """The Ship and retry calls: the order and the parcel (`booking` while Shiprocket books it)."""

    shipment = fields.Nested(AdminShipmentSchema)
