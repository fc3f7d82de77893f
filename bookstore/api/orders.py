"""Placing orders and following them: the shopper's list, one order, guest look-up, cancel, returns."""
from flask import Response, current_app, request

from bookstore import checkout_cookie
from bookstore.blueprint import Blueprint
from bookstore.errors import BadRequest
from bookstore.extensions import client_ip, limiter
from bookstore.schemas.common import PageQuerySchema, pagination
from bookstore.schemas.order import (DownloadReplySchema, OrderListReplySchema, OrderLookupQuerySchema, OrderReplySchema, OrderTokenQuerySchema,
                                     PlaceOrderSchema)
from bookstore.schemas.return_request import ReturnInputSchema, ReturnPhotoInputSchema, ReturnReplySchema
from bookstore.security import current_user, login_required, login_unless_order_link, optional_login
from bookstore.services import bills, checkout, digital, orders, private_files, returns

blp = Blueprint("orders", __name__, url_prefix="/api/orders", description="Orders")


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 100 and key.isascii() and key.isprintable()):
        raise BadRequest("Idempotency-Key must be 1 to 100 printable characters.")
    return key


def _contact_key(field: str):
    """A rate-limit key from the order's shipping e-mail or phone (normalised), else the client's IP."""
    def key() -> str:
        body = request.get_json(silent=True)
        address = body.get("shippingAddress") if isinstance(body, dict) else None
        value = address.get(field) if isinstance(address, dict) else None
        if not isinstance(value, str) or not value.strip():
            return f"order-ip:{client_ip()}"
        value = value.strip().lower() if field == "email" else "".join(ch for ch in value if ch.isdigit())[-10:]
        return f"order-{field}:{value}"
    return key


def _placed(response) -> bool:
    return response.status_code == 201


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["ORDER_LIMIT_PER_IP"])
# Per contact only orders actually placed count: a shopper refused for stock may try again.
@limiter.limit(lambda: current_app.config["ORDER_LIMIT_PER_CONTACT"], key_func=_contact_key("email"),
               deduct_when=_placed)
@limiter.limit(lambda: current_app.config["ORDER_LIMIT_PER_CONTACT"], key_func=_contact_key("phone"),
               deduct_when=_placed)
@optional_login
@blp.arguments(PlaceOrderSchema)
@blp.response(201, OrderReplySchema)
@blp.alt_response(200, schema=OrderReplySchema, description="Placed before with this Idempotency-Key: that order")
@blp.doc(parameters=[{"in": "header", "name": "Idempotency-Key", "required": False,
                      "description": "the same key for retries of one checkout; 1 to 100 printable characters",
                      "schema": {"type": "string", "minLength": 1, "maxLength": 100}}])
def place_order(data):
    """Place an order as a guest or, with a token, for the signed-in shopper (retry-safe with Idempotency-Key)."""
    origin = checkout.Origin(client_ip(), checkout_cookie.browser())
    order, created = checkout.place_order(data, current_user(), _idempotency_key(), origin)
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
@limiter.limit(lambda: current_app.config["LOOKUP_LIMIT_PER_IP"])
@blp.arguments(OrderLookupQuerySchema, location="query")
@blp.response(200, OrderReplySchema)
def lookup(query):
    """A guest finds an order by its number and the e-mail it was placed with."""
    return {"order": orders.lookup(query["order_number"], query["email"])}


@blp.route("/<string:order_id>", methods=["GET"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.response(200, OrderReplySchema)
def get_order(query, order_id):
    """One order, for its owner or an administrator, or for anyone with the order e-mail's link (`?token=`)."""
    token = query["token"]
    return {"order": orders.for_link_or_viewer(order_id, token, None if token else current_user())}


@blp.route("/<string:order_id>/bill", methods=["GET"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.response(200, description="The bill of supply (application/pdf)",
              content_type="application/pdf")
def get_bill(query, order_id):
    """The order's bill of supply as a PDF, once it is paid or delivered (owner, administrator or order link)."""
    token = query["token"]
    order, pdf = orders.bill(order_id, token, None if token else current_user())
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{bills.file_name(order)}"', "Cache-Control": "private, no-store"})


@blp.route("/<string:order_id>/cancel", methods=["POST"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.response(200, OrderReplySchema)
def cancel(query, order_id):
    """The owner cancels a pending or processing order within an hour of placing it (signed in, or `?token=`)."""
    token = query["token"]
    return {"message": "Order cancelled",
            "order": orders.cancel_by_customer(order_id, None if token else current_user(), token)}


@blp.route("/<string:order_id>/lines/<string:line_id>/download", methods=["POST"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.response(200, DownloadReplySchema)
def download_line(query, order_id, line_id):
    """Count one download of a paid e-book or audiobook line and answer its address, valid for 5 minutes
    (owner, administrator or order link; 409 before payment, when expired or used up)."""
    token = query["token"]
    url = digital.grant(order_id, line_id, token, None if token else current_user())
    return {"url": url, "expiresIn": digital.DOWNLOAD_LINK_SECONDS}


@blp.route("/<string:order_id>/returns", methods=["POST"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.arguments(ReturnInputSchema)
@blp.response(201, ReturnReplySchema)
def request_return(query, data, order_id):
    """The owner (signed in, or `?token=`) asks to return delivered copies within the return window."""
    token = query["token"]
    request_made = returns.request_return(order_id, data, None if token else current_user(), token)
    return {"message": "Return requested.", "return_request": request_made}, 201


@blp.route("/<string:order_id>/returns/<string:return_id>/photos", methods=["POST"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.arguments(ReturnPhotoInputSchema)
@blp.response(201, ReturnReplySchema)
def add_return_photo(query, data, order_id, return_id):
    """A photo of the damage (data URL, checked as covers are), while the return awaits a decision."""
    token = query["token"]
    request_made = returns.add_photo(order_id, return_id, data["photo"], None if token else current_user(), token)
    return {"message": "Photo added.", "return_request": request_made}, 201


@blp.route("/<string:order_id>/returns/<string:return_id>/photos/<string:photo_id>", methods=["GET"])
@login_unless_order_link
@blp.arguments(OrderTokenQuerySchema, location="query")
@blp.response(200, description="The photo (image/jpeg)", content_type="image/jpeg")
def return_photo(query, order_id, return_id, photo_id):
    """A return's photo, for the order's owner, an administrator or the order link; never cached."""
    token = query["token"]
    photo = returns.photo(order_id, return_id, photo_id, None if token else current_user(), token)
    return private_files.send(photo.key, f"return-photo-{photo.id}.jpg", "image/jpeg", as_attachment=False)
