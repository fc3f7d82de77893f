"""A book's stock ledger and the administrator's adjustments (guarded: /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import pagination
from bookstore.schemas.stock import (StockAdjustmentReplySchema, StockAdjustmentSchema, StockMovementQuerySchema,
                                     StockMovementsReplySchema)
from bookstore.security import current_user
from bookstore.services import inventory

blp = Blueprint("admin_stock", __name__, url_prefix="/api/admin/books", description="Administration: stock ledger")


@blp.route("/<string:book_id>/stock-movements", methods=["GET"])
@blp.arguments(StockMovementQuerySchema, location="query")
@blp.response(200, StockMovementsReplySchema)
def list_movements(query, book_id):
    """The book's stock ledger, newest first: every change of its stock with who and what caused it."""
    book, page = inventory.stock_movements(book_id, query["page"], query["limit"])
    return {"stock": book.stock, "movements": page.items, "pagination": pagination(page, "totalMovements")}


@blp.route("/<string:book_id>/stock-movements", methods=["POST"])
@blp.arguments(StockAdjustmentSchema)
@blp.response(201, StockAdjustmentReplySchema)
def adjust(data, book_id):
    """Record an adjustment (signed copies, a reason, a note); audited. 409 if the stock would go below 0."""
    movement = inventory.adjust_stock(book_id, data["quantity"], data["reason"], data.get("note"), current_user())
    return {"message": f"Stock adjusted: {movement.stock_after} now.", "stock": movement.stock_after,
            "movement": movement}
