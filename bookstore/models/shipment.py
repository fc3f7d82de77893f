"""Shipments of an order (which lines went in which parcel, by which courier and AWB), their tracking
events, and the couriers an administrator keeps (product §7.8)."""
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, DateTime, ForeignKey, Index, String, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import utcnow
from bookstore.models.order import Order, OrderLine, _in

# What a parcel goes through; `rto` is "returned to origin" (refused or undeliverable, on its way back).
SHIPMENT_EVENTS = ("picked_up", "in_transit", "out_for_delivery", "delivered", "failed_attempt", "rto")
# A shipment's own state: its last event, or `shipped` before any, `received` once an RTO parcel is back.
# Before that, a parcel booked through Shiprocket is `booking` (the job is at work; its lines are reserved)
# and `booking_failed` when the job gave up (its lines are free again; the admin retries or ships by hand).
BOOKING_STATUSES = ("booking", "booking_failed")
SHIPMENT_STATUSES = (*BOOKING_STATUSES, "shipped", *SHIPMENT_EVENTS, "received")
AGGREGATORS = ("manual", "shiprocket")
# The couriers migration 0017 seeds: name and public tracking page ({awb} is the AWB).
DEFAULT_COURIERS = (
    ("India Post", "https://www.indiapost.gov.in/_layouts/15/dop.portal.tracking/trackconsignment.aspx?consignment={awb}"),
    ("Delhivery", "https://www.delhivery.com/track/package/{awb}"),
    ("Blue Dart", "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo={awb}"),
    ("DTDC", "https://www.dtdc.in/tracking.asp?strCnno={awb}"),
    ("Ekart", "https://ekartlogistics.com/shipmenttrack/{awb}"),
    ("Xpressbees", "https://www.xpressbees.com/shipment/tracking?awbNo={awb}"),
    ("Other", ""),
)


class Courier(db.Model):
    """A courier the shop ships with; the tracking URL template names the AWB as `{awb}`."""

    __tablename__ = "couriers"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    tracking_url_template: Mapped[str] = mapped_column(String(300), default="", server_default="")
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    position: Mapped[int] = mapped_column(default=0, server_default="0")


class Shipment(db.Model):
    __tablename__ = "shipments"
    __table_args__ = (
        CheckConstraint(_in("status", SHIPMENT_STATUSES), name="status"),
        CheckConstraint(_in("aggregator", AGGREGATORS), name="aggregator"),
        CheckConstraint("packages >= 1", name="packages_positive"),
        UniqueConstraint("courier", "awb"),
        Index("ix_shipments_order_id", "order_id"),
        Index("ix_shipments_awb", "awb"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"))
    # The courier's name as it was when shipped (the list may change later).
    courier: Mapped[str] = mapped_column(String(60))
    # None while Shiprocket is booking the parcel (it assigns the AWB).
    awb: Mapped[str | None] = mapped_column(String(40))
    tracking_url: Mapped[str] = mapped_column(String(500), default="")
    packages: Mapped[int] = mapped_column(default=1)
    aggregator: Mapped[str] = mapped_column(String(20), default="manual")
    # Shiprocket's ids and documents for this parcel (empty for manual shipments).
    provider_order_id: Mapped[str] = mapped_column(String(40), default="", server_default="")
    provider_shipment_id: Mapped[str] = mapped_column(String(40), default="", server_default="")
    label_url: Mapped[str] = mapped_column(String(500), default="", server_default="")
    pickup_token: Mapped[str] = mapped_column(String(60), default="", server_default="")
    status: Mapped[str] = mapped_column(String(20), default="shipped")
    # The booking job (product §7.8): its tries, when it tries next, and the last failure's reason.
    booking_attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    booking_next_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    booking_error: Mapped[str] = mapped_column(String(300), default="", server_default="")
    shipped_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # 'admin:<id>'
    shipped_by: Mapped[str] = mapped_column(String(40))
    # Set once, by the statement that puts an RTO parcel's copies back on the shelf.
    received_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    order: Mapped[Order] = relationship(back_populates="shipments")
    lines: Mapped[list["ShipmentLine"]] = relationship(
        back_populates="shipment", cascade="all, delete-orphan", order_by="ShipmentLine.id")
    events: Mapped[list["ShipmentEvent"]] = relationship(
        back_populates="shipment", cascade="all, delete-orphan",
        order_by="(ShipmentEvent.at, ShipmentEvent.id)")


class ShipmentLine(db.Model):
    """How many copies of one order line went in a shipment."""

    __tablename__ = "shipment_lines"
    __table_args__ = (
        CheckConstraint("quantity > 0", name="quantity_positive"),
        Index("ix_shipment_lines_shipment_id", "shipment_id"),
        Index("ix_shipment_lines_order_line_id", "order_line_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    shipment_id: Mapped[int] = mapped_column(ForeignKey("shipments.id", ondelete="CASCADE"))
    order_line_id: Mapped[int] = mapped_column(ForeignKey("order_lines.id", ondelete="CASCADE"))
    quantity: Mapped[int]

    shipment: Mapped[Shipment] = relationship(back_populates="lines")
    order_line: Mapped[OrderLine] = relationship(lazy="joined")


class ShipmentEvent(db.Model):
    """One tracking event, from the aggregator's webhook or typed by an administrator."""

    __tablename__ = "shipment_events"
    __table_args__ = (
        CheckConstraint(_in("status", SHIPMENT_EVENTS), name="status"),
        Index("ix_shipment_events_shipment_id", "shipment_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    shipment_id: Mapped[int] = mapped_column(ForeignKey("shipments.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    location: Mapped[str] = mapped_column(String(120), default="")
    note: Mapped[str] = mapped_column(String(300), default="")
    # 'webhook' or 'admin:<id>'
    source: Mapped[str] = mapped_column(String(40))
    # The same delivery of the same scan is recorded once (webhooks are retried).
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    shipment: Mapped[Shipment] = relationship(back_populates="events")
