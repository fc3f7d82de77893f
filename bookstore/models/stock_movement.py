"""The stock ledger: one row per change of a book's stock, written with the change (product §5.9)."""
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import utcnow

# What moved the copies. `opening`: the stock a book's ledger starts from (a new book, or every book
# when the ledger began); the others name the use case that wrote them.
MOVEMENT_KINDS = ("opening", "sale", "cancel", "return_restocked", "rto_received", "kit_sale", "kit_cancel",
                  "import", "adjustment")
# Why an administrator adjusted the stock.
ADJUSTMENT_REASONS = ("count_correction", "damaged", "lost", "found", "received_from_supplier")


class StockMovement(db.Model):
    __tablename__ = "stock_movements"
    __table_args__ = (Index("ix_stock_movements_book", "book_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # A book never ordered may be deleted: its ledger goes with it.
    book_id: Mapped[int] = mapped_column(ForeignKey("books.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    quantity: Mapped[int] = mapped_column(Integer)     # signed: copies onto (+) or off (-) the shelf
    stock_after: Mapped[int] = mapped_column(Integer)
    # Who: "admin:<id>", "customer", "job:<name>", "system"; actor_id for a person.
    actor: Mapped[str] = mapped_column(String(40))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # What caused it: at most the ones that apply.
    order_id: Mapped[int | None] = mapped_column(ForeignKey("orders.id", ondelete="SET NULL"))
    return_id: Mapped[int | None] = mapped_column(ForeignKey("returns.id", ondelete="SET NULL"))
    shipment_id: Mapped[int | None] = mapped_column(ForeignKey("shipments.id", ondelete="SET NULL"))
    import_id: Mapped[str | None] = mapped_column(String(64))
    reason: Mapped[str | None] = mapped_column(String(30))
    note: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    order = relationship("Order", lazy="joined", viewonly=True)
