"""Shop settings an administrator edits (delivery estimates, COD rules, fees), one JSON value per key.

A key with no row has its default (`services.delivery.DEFAULTS`), so a fresh shop needs no rows and
a GET never writes one.
"""
from datetime import datetime

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db
from bookstore.models.base import utcnow


class ShopSetting(db.Model):
    __tablename__ = "shop_settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[object] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
