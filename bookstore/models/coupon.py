"""Coupons and their uses: a code's rules, and one row per order that used it (given back on cancel)."""
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin, utcnow

COUPON_KINDS = ("percent", "flat")


class Coupon(TimestampMixin, db.Model):
    __tablename__ = "coupons"
    __table_args__ = (
        CheckConstraint("kind IN ('percent', 'flat')", name="kind"),
        CheckConstraint("value > 0", name="value_positive"),
        # max_uses NULL means unlimited; `uses` never passes it (the redeeming UPDATE checks).
        CheckConstraint("max_uses IS NULL OR uses <= max_uses", name="uses_within_max"),
        CheckConstraint("uses >= 0", name="uses_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(20), unique=True)  # stored upper-case
    kind: Mapped[str] = mapped_column(String(10))
    # A percentage (1-90) for 'percent'; paise for 'flat'.
    value: Mapped[int]
    min_order_paise: Mapped[int] = mapped_column(default=0)
    valid_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    valid_to: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    max_uses: Mapped[int | None]
    max_uses_per_customer: Mapped[int | None]
    category_id: Mapped[int | None] = mapped_column(ForeignKey("categories.id", ondelete="SET NULL"))
    first_order_only: Mapped[bool] = mapped_column(Boolean, default=False)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    uses: Mapped[int] = mapped_column(default=0)

    category = relationship("Category", lazy="joined")


class CouponUse(db.Model):
    """An order's use of a coupon; `released_at` once the order was cancelled and the use given back."""

    __tablename__ = "coupon_uses"
    __table_args__ = (
        Index("ix_coupon_uses_coupon_email", "coupon_id", "email"),
        Index("ix_coupon_uses_coupon_phone", "coupon_id", "phone"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    coupon_id: Mapped[int] = mapped_column(ForeignKey("coupons.id", ondelete="CASCADE"))
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    email: Mapped[str] = mapped_column(String(254))
    phone: Mapped[str] = mapped_column(String(20))
    discount_paise: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    released_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
