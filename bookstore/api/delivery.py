"""Delivery to a PIN: place, serviceability, cash on delivery and the delivery dates (public)."""
from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.schemas.delivery import DeliveryReplySchema, PinPathSchema
from bookstore.services import delivery

blp = Blueprint("delivery", __name__, url_prefix="/api/delivery", description="Delivery")


@blp.route("/<string:pin>", methods=["GET"])
@limiter.exempt  # a dictionary look-up and one small read, about public data: nothing to protect
@blp.arguments(PinPathSchema, location="path")
@blp.response(200, DeliveryReplySchema)
def delivery_to(path, pin):
    """Where a PIN is, whether the shop delivers there (and cash on delivery), and the delivery dates.
    An unknown but well-formed PIN answers `serviceable: false`; a malformed one is 422."""
    return delivery.estimate(path["pin"])
