"""Administrators' order list and status changes (guarded by the admin blueprint)."""
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from bookstore.models import ORDER_STATUSES
from bookstore.schemas.book import PageQuerySchema
from bookstore.schemas.common import PaginationSchema
from bookstore.schemas.order import OrderSchema, StatusUpdateSchema
from bookstore.security import current_user, require_admin
from bookstore.services import orders

blp = Blueprint("admin_orders", __name__, url_prefix="/api/admin/orders", description="Administration: orders")
blp.before_request(require_admin)


class AdminOrderQuerySchema(PageQuerySchema):
    limit = fields.Integer(load_default=10, validate=validate.Range(min=1, error="Limit must be 1 or more."))
    status = fields.String(validate=validate.OneOf(ORDER_STATUSES, error="Unknown status."))
    search = fields.String(validate=validate.Length(max=100, error="Search is limited to 100 characters."))


class AdminPaginationSchema(PaginationSchema):
    totalOrders = fields.Integer()


class AdminOrderSchema(OrderSchema):
    user = fields.Function(lambda order: {"firstName": order.first_name, "lastName": order.last_name})
    totalAmount = fields.Function(lambda order: OrderSchema().dump(order)["totalPrice"])


class AdminOrderListReplySchema(Schema):
    success = fields.Constant(True)
    orders = fields.List(fields.Nested(AdminOrderSchema))
    pagination = fields.Nested(AdminPaginationSchema)


class AdminOrderReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    order = fields.Nested(AdminOrderSchema)


@blp.route("", methods=["GET"])
@blp.arguments(AdminOrderQuerySchema, location="query")
@blp.response(200, AdminOrderListReplySchema)
def list_orders(query):
    """Orders, newest first, 10 a page, filtered by status and searched by number, name, e-mail or phone."""
    page = orders.admin_list(query["page"], query["limit"], query.get("status"), query.get("search"))
    return {"orders": page.items, "pagination": {"page": page.page, "limit": page.limit, "total": page.total,
                                                 "totalOrders": page.total, "totalPages": page.total_pages}}


@blp.route("/<string:order_id>", methods=["GET"])
@blp.response(200, AdminOrderReplySchema)
def get_order(order_id):
    """One order with lines, address, payment and history."""
    return {"order": orders.find(order_id)}


@blp.route("/<string:order_id>/status", methods=["PUT"])
@blp.arguments(StatusUpdateSchema)
@blp.response(200, AdminOrderReplySchema)
def update_status(data, order_id):
    """Move an order to another status (not out of cancelled, not delivered to cancelled)."""
    order = orders.change_status(order_id, data["status"], current_user(), data["note"])
    return {"message": f"Order is now {order.status}", "order": order}
