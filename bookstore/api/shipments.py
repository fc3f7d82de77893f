"""Shiprocket's tracking webhook. Its address avoids the word "shiprocket": Shiprocket's panel refuses
webhook URLs that contain it."""
from flask import current_app, request

from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.request_input import raw_body
from bookstore.schemas.shipment import TrackingWebhookReplySchema
from bookstore.services import shipments

blp = Blueprint("shipments", __name__, url_prefix="/api/shipments", description="Shipment tracking")


@blp.route("/tracking-webhook", methods=["POST"])
# Only refused tokens count: a wrong guess from an address that keeps guessing is 429, Shiprocket's own
# deliveries never add up.
@limiter.limit(lambda: current_app.config["WEBHOOK_TOKEN_FAILURES_PER_IP"],
               deduct_when=lambda response: response.status_code in (401, 403))
@raw_body
@blp.response(200, TrackingWebhookReplySchema)
@blp.doc(parameters=[{"in": "header", "name": "x-api-key", "required": True,
                      "description": "the token set in Shiprocket's webhook settings (SHIPROCKET_WEBHOOK_TOKEN)",
                      "schema": {"type": "string"}}])
def tracking_webhook():
    """A tracking update from Shiprocket, checked by its token; repeats are recorded once."""
    shipments.check_webhook_token(request.headers.get("x-api-key"))
    return {"success": True, "message": shipments.handle_webhook_body(request.get_data(as_text=True))}
