"""Returns of delivered books (product §7.10): what the shopper sends back and why, the photos, how the
shop takes the parcel back, and the refund (Razorpay, or a payout to a UPI ID or bank account)."""
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, DateTime, ForeignKey, ForeignKeyConstraint, Index, String, false
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import utcnow
from bookstore.models.order import Order, OrderLine, OrderLineBook, _in

# requested -> approved -> received -> refund_pending (online: the refund job) -> refunded; or rejected.
RETURN_STATUSES = ("requested", "approved", "rejected", "received", "refund_pending", "refunded")
RETURN_REASONS = ("damaged", "defective", "wrong", "missing")
RETURN_METHODS = ("pickup", "self_ship")
REFUND_ROUTES = ("razorpay", "upi", "bank")


class ReturnRequest(db.Model):
    __tablename__ = "returns"
    __table_args__ = (
        CheckConstraint(_in("status", RETURN_STATUSES), name="status"),
        CheckConstraint(_in("refund_route", REFUND_ROUTES), name="refund_route"),
        CheckConstraint("method IS NULL OR " + _in("method", RETURN_METHODS), name="method"),
        CheckConstraint("refund_paise >= 0", name="refund_not_negative"),
        Index("ix_returns_order_id", "order_id"),
        Index("ix_returns_status_created", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # What the API calls `_id`: random, like an order's.
    public_id: Mapped[str] = mapped_column(String(24), unique=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20), default="requested")
    note: Mapped[str] = mapped_column(String(500), default="")
    # pickup or self_ship, chosen by the administrator on approval.
    method: Mapped[str | None] = mapped_column(String(10))
    # The administrator's latest word to the shopper (the reason of a refusal, pickup details...).
    admin_note: Mapped[str] = mapped_column(String(500), default="")
    # Worked out when asked for: the lines' value after the order's discount, less the shipping fee for a
    # cash-on-delivery order (once per order: `shipping_deducted_paise` says whether this return took it).
    refund_paise: Mapped[int]
    shipping_deducted_paise: Mapped[int] = mapped_column(default=0)
    refund_route: Mapped[str] = mapped_column(String(10))
    # Where a cash-on-delivery refund goes: kept for this refund only, erased once it is paid out;
    # `refund_to_masked` ("ab***@okaxis", "****4321") stays for the record.
    refund_upi: Mapped[str | None] = mapped_column(String(100))
    refund_account: Mapped[str | None] = mapped_column(String(20))
    refund_ifsc: Mapped[str | None] = mapped_column(String(11))
    refund_holder: Mapped[str | None] = mapped_column(String(100))
    refund_to_masked: Mapped[str] = mapped_column(String(60), default="")
    # The bank's or UPI's reference of a payout the administrator made (cash on delivery).
    payout_reference: Mapped[str | None] = mapped_column(String(60))
    razorpay_refund_id: Mapped[str | None] = mapped_column(String(40))
    refund_attempts: Mapped[int] = mapped_column(default=0)
    refund_error: Mapped[str] = mapped_column(String(300), default="")
    # Razorpay refused the refund for a reason that won't change: the job stops and an administrator looks.
    refund_stopped: Mapped[bool] = mapped_column(Boolean, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    refunded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    order: Mapped[Order] = relationship(backref=backref("returns", order_by="ReturnRequest.id",
                                                        cascade="all, delete-orphan"))
    lines: Mapped[list["ReturnLine"]] = relationship(
        back_populates="request", cascade="all, delete-orphan", order_by="ReturnLine.id", lazy="selectin")
    photos: Mapped[list["ReturnPhoto"]] = relationship(
        back_populates="request", cascade="all, delete-orphan", order_by="ReturnPhoto.id", lazy="selectin")


class ReturnLine(db.Model):
    __tablename__ = "return_lines"
    __table_args__ = (
        CheckConstraint("quantity > 0", name="quantity_positive"),
        CheckConstraint(_in("reason", RETURN_REASONS), name="reason"),
        Index("ix_return_lines_return_id", "return_id"),
        Index("ix_return_lines_order_line_id", "order_line_id"),
        # A kit line's return names a book that kit line held (NULL book_id: a book's own line, not checked).
        ForeignKeyConstraint(["order_line_id", "book_id"], ["order_line_books.order_line_id", "order_line_books.book_id"],
                             ondelete="CASCADE"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("returns.id", ondelete="CASCADE"))
    order_line_id: Mapped[int] = mapped_column(ForeignKey("order_lines.id", ondelete="CASCADE"))
    # The book returned out of a kit line; None for a book's own line.
    book_id: Mapped[int | None]
    quantity: Mapped[int]
    reason: Mapped[str] = mapped_column(String(20))
    # Set when received: whether the copies go back on the shelf.
    resaleable: Mapped[bool | None] = mapped_column(Boolean)

    request: Mapped[ReturnRequest] = relationship(back_populates="lines")
    order_line: Mapped[OrderLine] = relationship(lazy="joined")
    kit_book: Mapped[OrderLineBook | None] = relationship(lazy="joined", viewonly=True)

    @property
    def returned_book_id(self) -> int:
        """The book sent back: the line's own, or the kit's book."""
        return self.book_id if self.book_id is not None else self.order_line.book_id

    @property
    def title(self) -> str:
        """The book's title; a kit's book says which kit it came in: "Physics Part 1 (from JEE Main Kit)"."""
        if self.kit_book is None:
            return self.order_line.title
        return kit_book_title(self.kit_book.title, self.order_line.title)


def kit_book_title(book_title: str, kit_title: str) -> str:
    return f"{book_title} (from {kit_title})"


class ReturnPhoto(db.Model):
    """A photo sent with a return, in private storage (services/private_files.py)."""

    __tablename__ = "return_photos"
    __table_args__ = (Index("ix_return_photos_return_id", "return_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    return_id: Mapped[int] = mapped_column(ForeignKey("returns.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    request: Mapped[ReturnRequest] = relationship(back_populates="photos")
