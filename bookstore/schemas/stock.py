"""A book's stock ledger (product §5.9): its rows, and an administrator's adjustment."""
from marshmallow import Schema, fields, validate

from bookstore.models import ADJUSTMENT_REASONS
from bookstore.schemas.common import PageQuerySchema, ReplySchema, counted_pagination, page_limit
from bookstore.schemas.fields import IdString, InputSchema, UtcDateTime, WholeNumber


class StockMovementQuerySchema(PageQuerySchema):
    limit = page_limit(20)


class StockMovementSchema(Schema):
    _id = IdString(attribute="id")
    kind = fields.String(metadata={"description": "opening, sale, cancel, return_restocked, rto_received, kit_sale, "
                                                  "kit_cancel, import or adjustment"})
    quantity = fields.Integer(metadata={"description": "Signed: copies onto (+) or off (-) the shelf"})
    stockAfter = fields.Integer(attribute="stock_after")
    actor = fields.String(metadata={"description": "admin:<id>, customer, job:<name> or system"})
    orderId = fields.Function(lambda row: row.order.public_id if row.order_id and row.order else None,
                              metadata={"description": "The order's public id"})
    orderNumber = fields.Function(lambda row: row.order.order_number if row.order_id and row.order else None)
    returnId = fields.Function(lambda row: str(row.return_id) if row.return_id else None)
    shipmentId = fields.Function(lambda row: str(row.shipment_id) if row.shipment_id else None)
    importId = fields.String(attribute="import_id", allow_none=True)
    reason = fields.String(allow_none=True)
    note = fields.String(allow_none=True)
    createdAt = UtcDateTime(attribute="created_at")


class StockMovementsReplySchema(ReplySchema):
    stock = fields.Integer()
    movements = fields.List(fields.Nested(StockMovementSchema))
    pagination = counted_pagination("StockMovementPaginationSchema", "totalMovements")


class StockAdjustmentSchema(InputSchema):
    quantity = WholeNumber(required=True, validate=validate.Range(min=-100000, max=100000),
                           metadata={"description": "Signed, not 0: copies onto (+) or off (-) the shelf"})
    reason = fields.String(required=True, validate=validate.OneOf(
        ADJUSTMENT_REASONS, error="Choose a reason: count_correction, damaged, lost, found or received_from_supplier."))
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500))


class StockAdjustmentReplySchema(ReplySchema):
    message = fields.String()
    stock = fields.Integer()
    movement = fields.Nested(StockMovementSchema)
