"""Placing orders and following them: the shopper's list, one order, guest look-up, cancel."""
from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from bookstore.errors import BadRequest
from bookstore.schemas.book import PageQuerySchema
from bookstore.schemas.common import PaginationSchema, pagination
from bookstore.schemas.order import OrderLookupQuerySchema, OrderSchema, PlaceOrderSchema
from bookstore.security import current_user, login_required, optional_login
from bookstore.services import checkout, orders

blp = Blueprint("orders", __name__, url_prefix="/api/orders", description="Orders")


class OrderReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    order = fields.Nested(OrderSchema)


class OrderListReplySchema(Schema):
    success = fields.Constant(True)
    orders = fields.List(fields.Nested(OrderSchema))
    totalOrders = fields.Integer()
    totalPages = fields.Integer()
    pagination = fields.Nested(PaginationSchema)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 100 and key.isascii() and key.isprintable()):
        raise BadRequest("Idempotency-Key must be 1 to 100 printable characters.")
    return key


@blp.route("", methods=["POST"])
@optional_login
@blp.arguments(PlaceOrderSchema)
@blp.response(201, OrderReplySchema)
def place_order(data):
    """Place an order as a guest or, with a token, for the signed-in shopper (retry-safe with Idempotency-Key)."""
    order, created = checkout.place_order(data, current_user(), _idempotency_key())
    reply = {"message": "Order placed" if created else "Order already placed", "order": order}
    return (reply, 201) if created else (reply, 200, {"Idempotent-Replayed": "true"})


@blp.route("/mine", methods=["GET"])
@login_required
@blp.arguments(PageQuerySchema, location="query")
@blp.response(200, OrderListReplySchema)
def my_orders(query):
    """The signed-in shopper's orders, newest first."""
    page = orders.mine(current_user(), query["page"], query["limit"])
    return {"orders": page.items, "totalOrders": page.total, "totalPages": page.total_pages,
            "pagination": pagination(page)}


@blp.route("/lookup", methods=["GET"])
@blp.arguments(OrderLookupQuerySchema, location="query")
@blp.response(200, OrderReplySchema)
def lookup(query):
    """A guest finds an order by its number and the e-mail it was placed with."""
    return {"order": orders.lookup(query["order_number"], query["email"])}


@blp.route("/<string:order_id>", methods=["GET"])
@login_required
@blp.response(200, OrderReplySchema)
def get_order(order_id):
    """One order, for its owner or an administrator."""
    return {"order": orders.for_viewer(order_id, current_user())}


@blp.route("/<string:order_id>/cancel", methods=["POST"])
@login_required
@blp.response(200, OrderReplySchema)
def cancel(order_id):
    """The owner cancels a pending or processing order within an hour of placing it."""
    return {"message": "Order cancelled", "order": orders.cancel_by_customer(order_id, current_user())}
