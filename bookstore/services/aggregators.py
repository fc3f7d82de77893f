"""The shipping aggregators behind one interface: `manual` (the admin types courier and AWB) and
`shiprocket` (Shiprocket books the parcel: order, AWB, label and pickup).

`book(order, lines, request, sequence)` answers a `Booking`; it writes nothing to the database, so a
failure (a 502 from Shiprocket, a 422 for a missing AWB) leaves the order untouched.
"""
from typing import NamedTuple, Protocol
from urllib.parse import quote

from flask import current_app
from sqlalchemy import select

from bookstore import money
from bookstore.errors import ValidationFailed
from bookstore.extensions import db
from bookstore.models import Courier, Order, OrderLine, utcnow
from bookstore.services import shiprocket_gateway

# What Shiprocket needs to price a parcel; the shop does not measure its books, so a paperback's size.
PARCEL_CM = (25, 20, 5)
KG_PER_COPY = 0.5


class Booking(NamedTuple):
    courier: str
    awb: str
    tracking_url: str
    provider_order_id: str = ""
    provider_shipment_id: str = ""
    label_url: str = ""
    pickup_token: str = ""


class Aggregator(Protocol):
    name: str

    def book(self, order: Order, lines: list[tuple[OrderLine, int]], request: dict, sequence: int) -> Booking:
        """Book one parcel of `order` holding `lines` (line, copies). :raise ApiError:"""


def tracking_link(template: str, awb: str) -> str:
    """A tracking URL template with `{awb}` filled in."""
    return template.replace("{awb}", quote(awb, safe="")) if template else ""


class Manual:
    """The admin hands the parcel to a courier of the list and types its AWB."""

    name = "manual"

    def book(self, order, lines, request, sequence):
        errors = {}
        courier = None
        if not request.get("courier"):
            errors["courier"] = ["Courier is required."]
        else:
            courier = db.session.scalar(select(Courier).where(Courier.name == request["courier"],
                                                              Courier.active.is_(True)))
            if courier is None:
                errors["courier"] = ["Unknown courier: choose one from the shop's list."]
        if not request.get("awb"):
            errors["awb"] = ["AWB number is required."]
        if errors:
            raise ValidationFailed(errors)
        url = request.get("tracking_url") or tracking_link(courier.tracking_url_template, request["awb"])
        return Booking(courier.name, request["awb"], url)


class Shiprocket:
    """Shiprocket books the parcel: adhoc order, AWB, label, pickup (each call waits at most
    SHIPROCKET_TIMEOUT_SECONDS; any failure is a 502 and nothing is written)."""

    name = "shiprocket"

    def book(self, order, lines, request, sequence):
        if not shiprocket_gateway.configured():
            raise ValidationFailed({"aggregator": ["Shiprocket is not set up: set SHIPROCKET_EMAIL and "
                                                   "SHIPROCKET_PASSWORD, or ship manually."]})
        created = shiprocket_gateway.create_order(_adhoc_order(order, lines, request, sequence))
        shipment_id = created["shipment_id"]
        assigned = shiprocket_gateway.assign_awb(shipment_id)
        label = shiprocket_gateway.generate_label(shipment_id)
        pickup = shiprocket_gateway.generate_pickup(shipment_id)
        awb = str(assigned["awb_code"])
        courier = str(assigned.get("courier_name") or "Shiprocket")[:60]
        url = request.get("tracking_url") or tracking_link(current_app.config["SHIPROCKET_TRACKING_URL"], awb)
        return Booking(courier, awb, url, str(created.get("order_id") or ""), str(shipment_id), label[:500],
                       str(pickup.get("pickup_token_number") or "")[:60])


def _adhoc_order(order: Order, lines: list[tuple[OrderLine, int]], request: dict, sequence: int) -> dict:
    """Shiprocket's `orders/create/adhoc` body for one parcel. The channel order id is the order number
    and the parcel's sequence, so a retry after a lost answer names the same Shiprocket order."""
    cod = order.payment_method == "cod" and order.payment_status != "paid"
    items_paise = sum(line.unit_price_paise * quantity for line, quantity in lines)
    copies = sum(quantity for _line, quantity in lines)
    first_parcel = sequence == 1
    return {
        "order_id": f"{order.order_number}-{sequence}",
        "order_date": utcnow().strftime("%Y-%m-%d %H:%M"),
        "pickup_location": current_app.config["SHIPROCKET_PICKUP_LOCATION"],
        "billing_customer_name": order.first_name, "billing_last_name": order.last_name,
        "billing_address": order.address, "billing_address_2": order.landmark, "billing_city": order.city,
        "billing_pincode": order.zip_code, "billing_state": order.state, "billing_country": order.country,
        "billing_email": order.email, "billing_phone": order.phone[-10:], "shipping_is_billing": True,
        "order_items": [{"name": line.title[:200], "sku": f"BOOK-{line.book_id}" if line.kit_id is None else f"KIT-{line.kit_id}", "units": quantity,
                         "selling_price": float(money.to_rupees(line.unit_price_paise)), "hsn": 4901}
                        for line, quantity in lines],
        "payment_method": "COD" if cod else "Prepaid",
        # The whole order's shipping, fee and discount ride with its first parcel.
        "shipping_charges": float(money.to_rupees(order.shipping_paise + order.cod_fee_paise)) if first_parcel else 0,
        "total_discount": float(money.to_rupees(order.discount_paise)) if first_parcel else 0,
        "sub_total": float(money.to_rupees(items_paise)),
        "length": PARCEL_CM[0], "breadth": PARCEL_CM[1], "height": PARCEL_CM[2],
        "weight": round(KG_PER_COPY * copies, 2),
    }


AGGREGATORS: dict[str, Aggregator] = {"manual": Manual(), "shiprocket": Shiprocket()}
