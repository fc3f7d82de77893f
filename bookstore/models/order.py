"""Orders, their lines and status history: priced and stocked by the server, money in paise."""
from datetime import date, datetime
from typing import NamedTuple

from sqlalchemy import JSON, Boolean, CheckConstraint, Date, DateTime, ForeignKey, Index, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import AddressMixin, KitPartMixin, TimestampMixin, utcnow

# `returned`: the parcel came back to the shop (RTO received) instead of reaching the shopper.
ORDER_STATUSES = ("pending", "processing", "shipped", "delivered", "cancelled", "returned")
PAYMENT_STATUSES = ("pending", "awaiting", "paid", "failed", "refunded", "refund_pending")
PAYMENT_METHODS = ("cod", "online")
ADDRESS_TYPES = ("home", "work", "other")


class DeliveryDates(NamedTuple):
    earliest: date
    latest: date


def _in(column: str, values: tuple) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Order(AddressMixin, TimestampMixin, db.Model):
    __tablename__ = "orders"
    __table_args__ = (
        CheckConstraint(_in("status", ORDER_STATUSES), name="status"),
        CheckConstraint(_in("payment_status", PAYMENT_STATUSES), name="payment_status"),
        CheckConstraint(_in("payment_method", PAYMENT_METHODS), name="payment_method"),
        CheckConstraint("total_paise = items_paise + shipping_paise + tax_paise + cod_fee_paise - discount_paise",
                        name="total_adds_up"),
        CheckConstraint("discount_paise >= 0 AND discount_paise <= items_paise", name="discount_within_items"),
        Index("ix_orders_user_created", "user_id", "created_at"),
        Index("ix_orders_status_created", "status", "created_at"),
        Index("ix_orders_awaiting_expiry", "payment_status", "payment_expires_at"),
        Index("ix_orders_email", "email"),
        Index("ix_orders_created", "created_at"),
        Index("ix_orders_refund_pending", "payment_status", "refund_attempts"),
        Index("ix_orders_placed_ip", "placed_ip", "status"),
        Index("ix_orders_checkout_browser", "checkout_browser", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # What the API calls `_id`: random, so order URLs cannot be guessed from one another.
    public_id: Mapped[str] = mapped_column(String(24), unique=True)
    # BK-2026-000123, made from id in the same transaction as the insert.
    order_number: Mapped[str | None] = mapped_column(String(20), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    payment_method: Mapped[str] = mapped_column(String(10))
    payment_status: Mapped[str] = mapped_column(String(20), default="pending")
    items_paise: Mapped[int]
    shipping_paise: Mapped[int]
    tax_paise: Mapped[int] = mapped_column(default=0)
    # A coupon's discount on the books (never on shipping); the code as the shopper typed it, upper-cased.
    discount_paise: Mapped[int] = mapped_column(default=0, server_default="0")
    coupon_code: Mapped[str | None] = mapped_column(String(20))
    # The shop's fee for cash on delivery (an admin setting, ₹0 by default).
    cod_fee_paise: Mapped[int] = mapped_column(default=0, server_default="0")
    total_paise: Mapped[int]

    # Shipping address, copied onto the order so later profile changes never rewrite history.
    email: Mapped[str] = mapped_column(String(254))
    # The other address columns are AddressMixin's; checkout takes narrower state and PIN code.
    state: Mapped[str] = mapped_column(String(60))
    zip_code: Mapped[str] = mapped_column(String(6))

    razorpay_order_id: Mapped[str | None] = mapped_column(String(40), unique=True)
    razorpay_payment_id: Mapped[str | None] = mapped_column(String(40), unique=True)
    razorpay_refund_id: Mapped[str | None] = mapped_column(String(40))
    # A cancel sets payment_status refund_pending; the refund job counts its tries and keeps the last error.
    refund_attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    refund_error: Mapped[str] = mapped_column(String(300), default="", server_default="")
    # Razorpay refused the refund for a reason that won't change: the job stops and an administrator looks.
    refund_stopped: Mapped[bool] = mapped_column(Boolean, server_default=false())
    paid_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Online orders hold their stock until then; unpaid, they are cancelled and the stock freed.
    payment_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Set once, by the single statement that gives the stock back, so it can never happen twice.
    stock_released: Mapped[bool] = mapped_column(Boolean, default=False)
    # The delivery dates promised when the order was placed (None: a PIN the directory does not know).
    promised_from: Mapped[date | None] = mapped_column(Date)
    promised_to: Mapped[date | None] = mapped_column(Date)

    # "<user id or guest>:<Idempotency-Key>" and a hash of the request it first came with.
    idempotency_key: Mapped[str | None] = mapped_column(String(160), unique=True)
    request_hash: Mapped[str | None] = mapped_column(String(64))
    # The SHA-256 of the checkout cookie of the browser that placed it (bookstore/checkout_cookie.py): a guest's
    # unpaid online order is replaced only by a new checkout from that browser.
    checkout_browser: Mapped[str | None] = mapped_column(String(64))

    # The buyer's GSTIN, when given at checkout (printed on the bill of supply).
    buyer_gstin: Mapped[str | None] = mapped_column(String(15))
    # The bill of supply: its serial number ("BS/2627/000123", unique, never reused) and date, set once when
    # the order is first paid or delivered (services/bills.py).
    bill_number: Mapped[str | None] = mapped_column(String(16), unique=True)
    billed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Until when the digital lines may be downloaded (DOWNLOAD_DAYS after payment); None before payment.
    downloads_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Where it was placed from (checkout.Origin; the browser is `checkout_browser`): copies held by unpaid orders
    # are capped per IP and per browser.
    placed_ip: Mapped[str | None] = mapped_column(String(45))
    # A cash order of many copies (the shop setting largeCodCopies) is cancelled unless confirmed (processing) by then.
    confirm_by: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    # Loaded by each read as it needs them (services/orders.py: FULL_ORDER for one order, summaries for lists),
    # never by the model: a list of orders reads none of them.
    lines: Mapped[list["OrderLine"]] = relationship(
        back_populates="order", cascade="all, delete-orphan", order_by="OrderLine.id")
    history: Mapped[list["OrderStatusChange"]] = relationship(
        back_populates="order", cascade="all, delete-orphan", order_by="OrderStatusChange.id")
    shipments: Mapped[list["Shipment"]] = relationship(  # noqa: F821  (models/shipment.py)
        back_populates="order", cascade="all, delete-orphan", order_by="Shipment.id")

    @property
    def digital_only(self) -> bool:
        """Every line is an e-book or audiobook: nothing to ship, no address (product §7.11)."""
        return bool(self.lines) and all(line.digital for line in self.lines)

    @property
    def has_printed(self) -> bool:
        return any(not line.digital for line in self.lines)

    @property
    def bill_owed(self) -> bool:
        """A bill of supply exists or is owed: the order is paid (online, or cash collected) or delivered."""
        return bool(self.bill_number) or self.payment_status == "paid" or self.status == "delivered"

    @property
    def sent_shipments(self) -> list:
        """The parcels handed to a courier: not those Shiprocket is booking or failed to book (product §7.8)."""
        return [shipment for shipment in self.shipments if shipment.status not in ("booking", "booking_failed")]

    @property
    def promised(self) -> "DeliveryDates | None":
        """The promised delivery dates, or None."""
        if self.promised_from is None:
            return None
        return DeliveryDates(self.promised_from, self.promised_to or self.promised_from)

    @property
    def item_count(self) -> int:
        return sum(line.quantity for line in self.lines)

    def can_be_cancelled_by_customer(self, now: datetime) -> bool:
        """Pending or processing, and placed less than an hour ago (product §7.4)."""
        created = self.created_at if self.created_at.tzinfo else self.created_at.replace(tzinfo=now.tzinfo)
        return self.status in ("pending", "processing") and (now - created).total_seconds() < 3600


class OrderLine(db.Model):
    __tablename__ = "order_lines"
    __table_args__ = (
        CheckConstraint("quantity > 0", name="quantity_positive"),
        CheckConstraint("unit_price_paise >= 0", name="price_not_negative"),
        # A line is a book or a kit, never both.
        CheckConstraint("(book_id IS NULL) <> (kit_id IS NULL)", name="book_or_kit"),
        Index("ix_order_lines_order_id", "order_id"),
        Index("ix_order_lines_book_id", "book_id"),
        Index("ix_order_lines_kit_id", "kit_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"))
    book_id: Mapped[int | None] = mapped_column(ForeignKey("books.id"))
    kit_id: Mapped[int | None] = mapped_column(ForeignKey("kits.id"))
    # What the shopper bought, as it was then: titles and prices may change later.
    title: Mapped[str] = mapped_column(String(255))
    author: Mapped[str] = mapped_column(String(200))
    image_url: Mapped[str | None] = mapped_column(String(500))
    unit_price_paise: Mapped[int]
    quantity: Mapped[int]
    # An e-book or audiobook line: delivered as downloads (counted here), never put in a parcel.
    digital: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    downloads: Mapped[int] = mapped_column(default=0, server_default="0")
    # The newest of the line's counted links that was opened (each link opens once: services/digital.py); set by
    # the database alone, so inserts written before it (old migrations' tests) still work.
    links_opened: Mapped[int] = mapped_column(server_default="0")

    order: Mapped[Order] = relationship(back_populates="lines")
    # A kit line's books as the kit held them when it was sold: what the order took and gives back.
    kit_books: Mapped[list["OrderLineBook"]] = relationship(
        back_populates="line", cascade="all, delete-orphan", order_by="OrderLineBook.book_id")

    @property
    def line_total_paise(self) -> int:
        return self.unit_price_paise * self.quantity

    def copies(self) -> dict[int, int]:
        """Copies of each book this line takes: the book's, or each of the kit's books times the kits."""
        if self.kit_id is None:
            return {self.book_id: self.quantity}
        return {part.book_id: part.quantity * self.quantity for part in self.kit_books}


class OrderLineBook(KitPartMixin, db.Model):
    """One book of a kit sold on an order line, with its copies per kit (book_id, quantity: KitPartMixin)."""

    __tablename__ = "order_line_books"

    order_line_id: Mapped[int] = mapped_column(ForeignKey("order_lines.id", ondelete="CASCADE"), primary_key=True)
    title: Mapped[str] = mapped_column(String(255))
    # The book's own sale price when the kit was sold (the weight of its share of the kit price in a return's
    # refund; migration 0025 filled older lines with the prices of its day) and whether it is an e-book or
    # audiobook (not returned).
    unit_price_paise: Mapped[int | None]
    digital: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    line: Mapped[OrderLine] = relationship(back_populates="kit_books")


class OrderStatusChange(db.Model):
    __tablename__ = "order_status_changes"
    __table_args__ = (Index("ix_order_status_changes_order_id", "order_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # 'customer', 'admin:<id>' or 'system'.
    by: Mapped[str] = mapped_column(String(40))
    note: Mapped[str] = mapped_column(String(300), default="")

    order: Mapped[Order] = relationship(back_populates="history")


class PaymentEvent(db.Model):
    """Every payment signal received (verify calls and webhooks), for audit and de-duplication."""

    __tablename__ = "payment_events"
    __table_args__ = (Index("ix_payment_events_order_id", "order_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id", ondelete="SET NULL"))
    source: Mapped[str] = mapped_column(String(20))  # verify | webhook
    event: Mapped[str] = mapped_column(String(60))
    # Razorpay's X-Razorpay-Event-Id: a webhook delivered twice is recorded once.
    event_id: Mapped[str | None] = mapped_column(String(60), unique=True)
    razorpay_payment_id: Mapped[str | None] = mapped_column(String(40))
    payload: Mapped[dict] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxMail(db.Model):
    """E-mails waiting to be sent: written in the same transaction as the change they report."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_pending", "sent_at", "next_attempt_at"),
                      # The per-recipient cap counts an address's recent confirmation mails.
                      Index("ix_mail_outbox_to_kind", "to_address", "kind", "created_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str] = mapped_column(String(300), default="")
    # Set by the consumer that is sending it, so no other sends it too; a killed consumer's claim runs out.
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Newsletter mails: the one-click unsubscribe URL sent as List-Unsubscribe (RFC 8058).
    unsubscribe_url: Mapped[str | None] = mapped_column(String(500))
    # "confirmation" for a double opt-in mail to an address not yet proven (capped per recipient), else NULL.
    kind: Mapped[str | None] = mapped_column(String(20))
    # The order whose bill of supply goes with the mail as a PDF (made when the mail is sent).
    bill_order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id", ondelete="SET NULL"))


class BillCounter(db.Model):
    """The last bill of supply number given in a financial year ("2026-27"); one row per year, bumped with
    an UPDATE in the transaction that gives the number, so two orders never share one and none is skipped."""

    __tablename__ = "bill_counters"

    financial_year: Mapped[str] = mapped_column(String(7), primary_key=True)
    last_number: Mapped[int] = mapped_column(default=0)
