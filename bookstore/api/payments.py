"""Online payment: configuration, Razorpay order, Checkout verification and the webhook."""
from flask import current_app, request

from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.request_input import raw_body
from bookstore.schemas.payment import (ConfigReplySchema, CreateOrderReplySchema, CreateOrderSchema, VerifyReplySchema,
                                       VerifySchema, WebhookReplySchema)
from bookstore.services import payments

blp = Blueprint("payments", __name__, url_prefix="/api/payments", description="Online payment")


@blp.route("/config", methods=["GET"])
@blp.response(200, ConfigReplySchema)
def config():
    """Whether checkout can offer online payment, and the public key for Razorpay Checkout."""
    available = payments.online_available()
    return {"onlineAvailable": available, "keyId": current_app.config["RAZORPAY_KEY_ID"] if available else None,
            "checkoutUrl": current_app.config["RAZORPAY_CHECKOUT_URL"] if available else None,
            "message": "" if available else "Online payment is not available at the moment; "
                                             "cash on delivery is."}


@blp.route("/create-order", methods=["POST"])
@limiter.limit(lambda: current_app.config["PAYMENT_LIMIT_PER_IP"])
@blp.arguments(CreateOrderSchema)
@blp.response(200, CreateOrderReplySchema)
def create_order(data):
    """The Razorpay order for a shop order, for the server's amount (made once, then reused)."""
    claimed = {name: data[name] for name in ("amount", "currency", "receipt")}
    key_id, razorpay_order = payments.create_razorpay_order(data["orderId"], claimed)
    return {"key_id": key_id, "order": razorpay_order}


@blp.route("/verify", methods=["POST"])
@limiter.limit(lambda: current_app.config["PAYMENT_LIMIT_PER_IP"])
@blp.arguments(VerifySchema)
@blp.response(200, VerifyReplySchema)
def verify(data):
    """Check Razorpay Checkout's signature and mark the order paid (repeat calls change nothing)."""
    order = payments.verify(data["razorpay_order_id"], data["razorpay_payment_id"], data["razorpay_signature"])
    return {"message": "Payment verified", "order": order}


@blp.route("/webhook", methods=["POST"])
@limiter.exempt
@raw_body
@blp.response(200, WebhookReplySchema)
def webhook():
    """Razorpay's server-to-server events, signed over the raw body with the webhook secret."""
    outcome = payments.handle_webhook(request.get_data(as_text=True), request.headers.get("X-Razorpay-Signature"),
                                      request.headers.get("X-Razorpay-Event-Id"))
    return {"success": True, "message": outcome}
