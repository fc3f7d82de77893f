"""Administrators ship orders, record tracking events, receive returned parcels and keep the couriers
(guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.order import AdminOrderReplySchema, ShipReplySchema
from bookstore.schemas.shipment import (CourierInputSchema, CourierListReplySchema, CourierReplySchema,
                                        CourierUpdateSchema, ShipmentEventInputSchema, ShipmentInputSchema)
from bookstore.security import current_user
from bookstore.services import shipments, shiprocket_gateway

blp = Blueprint("admin_shipments", __name__, url_prefix="/api/admin", description="Administration: shipments")


@blp.route("/orders/<string:order_id>/shipments", methods=["POST"])
@blp.arguments(ShipmentInputSchema)
@blp.response(201, ShipReplySchema, description="Shipped by hand (201), or being booked through Shiprocket "
                                                "by a job (202, the parcel `booking`)")
@blp.alt_response(202, schema=ShipReplySchema, description="The parcel is being booked with Shiprocket")
def ship(data, order_id):
    """Ship lines of an order (every line left when `lines` is omitted) by hand, or ask Shiprocket to book
    them in a job (202)."""
    order, shipment = shipments.ship(order_id, data, current_user())
    if data.get("aggregator") == "shiprocket":
        return {"message": "Booking the parcel with Shiprocket. This screen shows its AWB once it is booked.",
                "order": order, "shipment": shipment}, 202
    return {"message": f"Shipped. The order is now {order.status}.", "order": order, "shipment": shipment}, 201


@blp.route("/orders/<string:order_id>/shipments/<string:shipment_id>/retry", methods=["POST"])
@blp.response(202, ShipReplySchema)
def retry_booking(order_id, shipment_id):
    """Book a parcel whose Shiprocket booking failed again (the same Shiprocket order)."""
    order, shipment = shipments.retry_booking(order_id, shipment_id, current_user())
    return {"message": "Booking the parcel with Shiprocket again.", "order": order, "shipment": shipment}, 202


@blp.route("/orders/<string:order_id>/shipments/<string:shipment_id>/events", methods=["POST"])
@blp.arguments(ShipmentEventInputSchema)
@blp.response(201, AdminOrderReplySchema)
def add_event(data, order_id, shipment_id):
    """Record a tracking event of a parcel (delivered parcels complete the order)."""
    order = shipments.add_event(order_id, shipment_id, data, current_user())
    return {"message": "Tracking event recorded.", "order": order}, 201


@blp.route("/orders/<string:order_id>/shipments/<string:shipment_id>/received", methods=["POST"])
@blp.response(200, AdminOrderReplySchema)
def receive(order_id, shipment_id):
    """A parcel returned to origin is back at the shop: its copies return to stock."""
    order = shipments.receive_returned(order_id, shipment_id, current_user())
    return {"message": f"Parcel received back. The order is {order.status}.", "order": order}


@blp.route("/couriers", methods=["GET"])
@blp.response(200, CourierListReplySchema)
def list_couriers():
    """The shop's couriers (inactive ones too) and whether Shiprocket is set up."""
    return {"couriers": shipments.couriers(), "shiprocket": shiprocket_gateway.configured()}


@blp.route("/couriers", methods=["POST"])
@blp.arguments(CourierInputSchema)
@blp.response(201, CourierReplySchema)
def add_courier(data):
    """Add a courier with an optional tracking address template ({awb})."""
    return {"message": "Courier added.", "courier": shipments.save_courier(data, current_user())}, 201


@blp.route("/couriers/<string:courier_id>", methods=["PUT"])
@blp.arguments(CourierUpdateSchema)
@blp.response(200, CourierReplySchema)
def update_courier(data, courier_id):
    """Rename a courier, change its tracking template or take it off the list (fields not sent are kept)."""
    return {"message": "Courier saved.", "courier": shipments.save_courier(data, current_user(), courier_id)}
