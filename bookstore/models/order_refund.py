"""Money given back on an order beyond its cancel refund and its returns (product §6.6): a parcel that came back
to the shop undelivered (RTO) and an administrator's part refund, one row each."""
from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import utcnow
from bookstore.models.order import Order, _in

# rto: a parcel returned to origin of an order otherwise delivered; part: an administrator's part refund.
ORDER_REFUND_KINDS = ("rto", "part")
# refund_pending -> refunded (online: the refund job; cash: the payout's reference), or failed when Razorpay
# refused for good; not_collected: a cash-on-delivery parcel that came back, so its share was never paid.
ORDER_REFUND_STATUSES = ("refund_pending", "refunded", "failed", "not_collected")


class OrderRefund(db.Model):
    __tablename__ = "order_refunds"
    __table_args__ = (
        CheckConstraint(_in("kind", ORDER_REFUND_KINDS), name="kind"),
        CheckConstraint(_in("status", ORDER_REFUND_STATUSES), name="status"),
        CheckConstraint("amount_paise > 0", name="amount_positive"),
        Index("ix_order_refunds_order_id", "order_id"),
        Index("ix_order_refunds_status", "status", "refund_attempts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(24), unique=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    # The RTO parcel this refund is for: one refund per parcel.
    shipment_id: Mapped[int | None] = mapped_column(ForeignKey("shipments.id", ondelete="SET NULL"), unique=True)
    amount_paise: Mapped[int]
    reason: Mapped[str] = mapped_column(String(300), default="")
    status: Mapped[str] = mapped_column(String(20), default="refund_pending")
    # 'admin:<id>' or 'system'.
    created_by: Mapped[str] = mapped_column(String(40))
    # The bank's or UPI's reference of a cash-on-delivery payout the administrator made.
    payout_reference: Mapped[str | None] = mapped_column(String(60))
    razorpay_refund_id: Mapped[str | None] = mapped_column(String(40))
    refund_attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    refund_error: Mapped[str] = mapped_column(String(300), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    refunded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    order: Mapped[Order] = relationship(backref=backref("refunds", order_by="OrderRefund.id",
                                                        cascade="all, delete-orphan"))
