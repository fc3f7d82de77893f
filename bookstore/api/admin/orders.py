"""Administrators' order list, detail, status changes and CSV export (guarded: under /api/admin)."""
from datetime import timezone

from flask import Response, stream_with_context

from bookstore import money
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import pagination
from bookstore.schemas.order_refund import PartRefundInputSchema
from bookstore.schemas.order import (AdminOrderListReplySchema, AdminOrderQuerySchema, AdminOrderReplySchema,
                                     OrderFilterSchema, StatusUpdateSchema)
from bookstore.security import current_user
from bookstore.services import orders, refunds
from bookstore.services.csv_export import rows_to_csv
from bookstore.services.india import IST
from bookstore.models import utcnow

blp = Blueprint("admin_orders", __name__, url_prefix="/api/admin/orders", description="Administration: orders")


@blp.route("", methods=["GET"])
@blp.arguments(AdminOrderQuerySchema, location="query")
@blp.response(200, AdminOrderListReplySchema)
def list_orders(query):
    """Orders, newest first, 10 a page, filtered by status and searched by number, name, e-mail or phone."""
    page = orders.admin_list(query["page"], query["limit"], query.get("status"), query.get("search"))
    return {"orders": page.items, "pagination": pagination(page, "totalOrders")}


EXPORT_COLUMNS = ["Order number", "Order ID", "Placed at (IST)", "Status", "Payment method", "Payment status",
                  "Customer", "E-mail", "Phone", "City", "State", "PIN", "Items", "Total (INR)",
                  "Paid after refunds (INR)", "Coupon", "Discount (INR)"]


def _export_row(order) -> list:
    placed = order.created_at if order.created_at.tzinfo else order.created_at.replace(tzinfo=timezone.utc)
    return [order.order_number, order.public_id, placed.astimezone(IST).strftime("%Y-%m-%d %H:%M"), order.status,
            order.payment_method, order.payment_status, f"{order.first_name} {order.last_name}", order.email,
            order.phone, order.city, order.state, order.zip_code, order.item_count,
            money.decimal_text(order.total_paise), money.decimal_text(refunds.refundable(order)),
            order.coupon_code or "", money.decimal_text(order.discount_paise)]


@blp.route("/export.csv", methods=["GET"])
@blp.arguments(OrderFilterSchema, location="query")
@blp.response(200, description="The filtered orders as CSV (text/csv), newest first.")
def export_orders(query):
    """Every order of the filtered list as a CSV download, streamed."""
    rows = (_export_row(order) for order in orders.admin_export(query.get("status"), query.get("search")))
    filename = f"orders-{utcnow().astimezone(IST).date().isoformat()}.csv"
    return Response(stream_with_context(rows_to_csv(EXPORT_COLUMNS, rows)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


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


@blp.route("/<string:order_id>/refunds", methods=["POST"])
@blp.arguments(PartRefundInputSchema)
@blp.response(201, AdminOrderReplySchema)
def part_refund(data, order_id):
    """Refund part of a paid order with a reason (online: through Razorpay by the refund job; cash on delivery:
    the payout's reference), never more than it may still refund; audited and mailed."""
    refunds.make_part_refund(order_id, data, current_user())
    return {"message": "Refund recorded", "order": orders.find(order_id)}, 201
