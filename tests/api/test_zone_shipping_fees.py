"""Shipping fees per delivery zone (issue 14): an administrator may give a zone its own fee (rupees on the
API, paise in the shop settings); an order's shipping is free from the threshold, else its PIN's zone fee,
else the flat fee. The quote, the order and the delivery answer use the same rule, and the 409 rule
covers a fee changed between the quote and the order."""
import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import AuditEntry, Order, ShopSetting
from bookstore.services.delivery import ZONES
from tests.conftest import Auth
from tests.factories import ADDRESS, Factories, count, place, placed
from tests.helpers import assert_refused

SETTINGS = "/api/admin/shop-settings"
# With the default dispatch PIN 560001 (Bengaluru): PINs of each zone, as tests/api/test_delivery.py uses them.
MYSURU = {**ADDRESS, "zipCode": "570001", "city": "Mysuru", "state": "Karnataka"}          # sameState
PUNE = {**ADDRESS, "zipCode": "411001", "city": "Pune", "state": "Maharashtra"}            # restOfIndia
GUWAHATI = {**ADDRESS, "zipCode": "781001", "city": "Guwahati", "state": "Assam"}          # special
UNKNOWN = {**ADDRESS, "zipCode": "999999", "city": "Nowhere", "state": "Karnataka"}        # not in the directory


@pytest.fixture
def admin(auth):
    return auth.admin()


@pytest.fixture
def book(factories):
    return factories.book(title="NEET Biology", price_paise=30000, stock=20)  # ₹300


def zone_rule(fee, min_days=4, max_days=7, cod=True) -> dict:
    return {"minDays": min_days, "maxDays": max_days, "cod": cod, "shippingFee": fee}


def set_rules(client, admin, **rules) -> dict:
    response = client.put(SETTINGS, json=rules, headers=admin)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["settings"]


def quote(client, book, quantity=1, **extra) -> dict:
    response = client.post("/api/cart/quote", json={"orderItems": [{"book": str(book.id), "quantity": quantity}],
                                                    **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def stored_zones() -> dict:
    return db.session.scalar(select(ShopSetting.value).where(ShopSetting.key == "zones"))


def test_a_zone_fee_is_charged_for_a_pin_in_that_zone_and_the_flat_fee_elsewhere(client, admin, book):
    """Rest of India at ₹75 and special at ₹120.50: a Pune order pays ₹75 (quote and order alike), a Guwahati
    one ₹120.50, a Mysuru one (no fee for its zone) and an unknown PIN the flat ₹40; a quote without a PIN
    says the flat fee."""
    settings = set_rules(client, admin, zones={"restOfIndia": zone_rule(75), "special": zone_rule("120.50", 6, 10)})
    assert settings["zones"]["restOfIndia"]["shippingFee"] == 75
    assert settings["zones"]["special"]["shippingFee"] == 120.5
    assert settings["zones"]["metro"]["shippingFee"] is None and settings["shippingFee"] == 40
    assert stored_zones()["restOfIndia"]["shipping_paise"] == 7500
    assert stored_zones()["special"]["shipping_paise"] == 12050

    assert quote(client, book, zipCode="411001")["shippingPrice"] == 75
    assert quote(client, book, zipCode="781001")["shippingPrice"] == 120.5
    assert quote(client, book, zipCode="570001")["shippingPrice"] == 40
    assert quote(client, book, zipCode="999999")["shippingPrice"] == 40
    assert quote(client, book)["shippingPrice"] == 40

    pune = placed(client, [(book, 1)], shippingAddress=PUNE, shippingPrice=75, totalPrice=375)
    assert (pune["shippingPrice"], pune["totalPrice"]) == (75, 375)
    guwahati = placed(client, [(book, 1)], shippingAddress=GUWAHATI, shippingPrice=120.5, totalPrice=420.5)
    assert guwahati["shippingPrice"] == 120.5
    assert placed(client, [(book, 1)], shippingAddress=MYSURU)["shippingPrice"] == 40
    stored = {order.zip_code: (order.shipping_paise, order.total_paise) for order in db.session.scalars(select(Order))}
    assert stored == {"411001": (7500, 37500), "781001": (12050, 42050), "570001": (4000, 34000)}


def test_a_pin_outside_the_directory_pays_the_flat_fee(shop, factories):
    """Every zone has its own fee; an order to a PIN the directory does not know (paid online: cash on delivery
    there cannot be confirmed) has no zone and pays the flat ₹40."""
    admin = Auth(shop, Factories()).admin()
    set_rules(shop, admin, zones={zone: zone_rule(99) for zone in ZONES})
    book = factories.book(title="CTET Paper 1", price_paise=30000, stock=5)
    assert quote(shop, book, zipCode="411001")["shippingPrice"] == 99
    assert quote(shop, book, zipCode="999999")["shippingPrice"] == 40
    order = placed(shop, [(book, 1)], "online", shippingAddress=UNKNOWN)
    assert (order["shippingPrice"], order["totalPrice"]) == (40, 340)
    assert db.session.scalars(select(Order)).one().shipping_paise == 4000


def test_an_order_priced_at_the_flat_fee_for_a_zone_with_its_own_fee_is_refused(client, admin, book):
    """A Pune order sent with the flat ₹40 while its zone costs ₹75 is 409 with the current figures; no order."""
    set_rules(client, admin, zones={"restOfIndia": zone_rule(75)})
    response = place(client, [(book, 1)], shippingAddress=PUNE)  # shippingPrice 40, totalPrice 340
    body = assert_refused(response, 409)
    assert (body["current"]["shippingPrice"], body["current"]["totalPrice"]) == (75, 375)
    assert count(Order) == 0


def test_free_shipping_from_the_threshold_beats_the_zone_fee(client, admin, book):
    """With free shipping from ₹500 and special at ₹120: two copies (₹600) to Guwahati ship free; one copy
    (₹300) pays the zone's ₹120."""
    set_rules(client, admin, freeShippingThreshold=500, zones={"special": zone_rule(120, 6, 10)})
    assert quote(client, book, 2, zipCode="781001")["shippingPrice"] == 0
    assert quote(client, book, 1, zipCode="781001")["shippingPrice"] == 120
    order = placed(client, [(book, 2)], shippingAddress=GUWAHATI, shippingPrice=0, totalPrice=600)
    assert (order["shippingPrice"], order["totalPrice"]) == (0, 600)


def test_a_zone_fee_changed_between_quote_and_order_is_a_409(client, admin, book):
    """The shopper saw ₹75 to Pune; the admin then sets ₹90: the order at the quoted total is 409 with the new
    figures and stores nothing; the order at the new total goes through."""
    set_rules(client, admin, zones={"restOfIndia": zone_rule(75)})
    seen = quote(client, book, zipCode="411001")
    assert seen["totalPrice"] == 375
    set_rules(client, admin, zones={"restOfIndia": zone_rule(90)})
    stale = place(client, [(book, 1)], shippingAddress=PUNE, shippingPrice=75, totalPrice=seen["totalPrice"])
    body = assert_refused(stale, 409)
    assert (body["current"]["shippingPrice"], body["current"]["totalPrice"]) == (90, 390)
    assert count(Order) == 0
    assert placed(client, [(book, 1)], shippingAddress=PUNE, shippingPrice=90, totalPrice=390)["totalPrice"] == 390


def test_a_zone_sent_without_a_fee_goes_back_to_the_flat_fee(client, admin, book):
    """A zone rule is sent whole: without shippingFee (or with null) the zone charges the flat fee again, and a
    changed flat fee applies there."""
    set_rules(client, admin, zones={"restOfIndia": zone_rule(75)})
    settings = set_rules(client, admin, zones={"restOfIndia": {"minDays": 4, "maxDays": 7, "cod": True}})
    assert settings["zones"]["restOfIndia"]["shippingFee"] is None
    assert stored_zones()["restOfIndia"]["shipping_paise"] is None
    set_rules(client, admin, shippingFee=50)
    assert quote(client, book, zipCode="411001")["shippingPrice"] == 50


@pytest.mark.parametrize("fee, message", [
    (-1, "Must be between 0 and 10,00,000 rupees."),
    (1000.01, "Must be between 0 and 1,000 rupees."),
    (5000, "Must be between 0 and 1,000 rupees."),
    ("40.505", "Must be an amount in rupees, like 499 or 499.50."),
    ("forty", "Must be an amount in rupees, like 499 or 499.50."),
    (True, "Must be an amount in rupees, like 499 or 499.50."),
])
def test_a_bad_zone_fee_is_422_on_its_field_and_changes_nothing(client, admin, book, fee, message):
    """A negative fee, one over ₹1,000, one with 3 decimals or not a number: 422 on zones.<zone>.shippingFee,
    no setting stored, no audit entry, and the zone still charges the flat fee."""
    response = client.put(SETTINGS, headers=admin, json={
        "codFee": 10, "zones": {"metro": zone_rule(55, 2, 4), "special": zone_rule(fee, 6, 10)}})
    body = assert_refused(response, 422)
    assert body["errors"] == {"zones": {"special": {"shippingFee": [message]}}}
    assert count(ShopSetting) == 0 and count(AuditEntry) == 0
    assert quote(client, book, zipCode="781001")["shippingPrice"] == 40


def test_the_upper_bound_is_allowed_and_zero_is_free_shipping_to_the_zone(client, admin, book):
    """₹1,000 is the highest fee a zone may have; ₹0 ships free to that zone (not the flat fee)."""
    settings = set_rules(client, admin, zones={"special": zone_rule(1000, 6, 10), "sameState": zone_rule(0, 2, 4)})
    assert settings["zones"]["special"]["shippingFee"] == 1000
    assert quote(client, book, zipCode="570001")["shippingPrice"] == 0
    assert placed(client, [(book, 1)], shippingAddress=MYSURU, shippingPrice=0, totalPrice=300)["shippingPrice"] == 0


def test_a_zone_fee_change_is_audited(client, admin):
    """Setting a zone's fee writes one audit entry with the zone before (no fee) and after (its fee, in paise);
    saving the same fee again writes none."""
    set_rules(client, admin, zones={"metro": zone_rule(60, 2, 4)})
    entry = db.session.scalars(select(AuditEntry)).one()
    assert (entry.action, entry.entity_type, entry.entity_id) == ("settings.update", "shop_settings", "shop")
    assert set(entry.after) == {"zones"}
    assert entry.before["zones"]["metro"] == {"min_days": 2, "max_days": 4, "cod": True, "shipping_paise": None}
    assert entry.after["zones"]["metro"] == {"min_days": 2, "max_days": 4, "cod": True, "shipping_paise": 6000}
    set_rules(client, admin, zones={"metro": zone_rule(60, 2, 4)})
    assert count(AuditEntry) == 1


def test_the_delivery_answer_names_the_fee_for_the_pin(client, admin):
    """GET /api/delivery/{pin} says the shipping fee there below the free-shipping threshold: its zone's fee,
    else the flat fee (an unknown PIN too); none where the shop does not deliver."""
    set_rules(client, admin, zones={"metro": zone_rule(65, 2, 4)}, unserviceablePins=["302001"])
    assert client.get("/api/delivery/400001").get_json()["shippingFee"] == 65
    assert client.get("/api/delivery/411001").get_json()["shippingFee"] == 40
    assert client.get("/api/delivery/999999").get_json()["shippingFee"] == 40
    assert client.get("/api/delivery/302001").get_json()["shippingFee"] is None


def test_the_shop_constants_keep_the_flat_fee_and_name_the_zone_fees(client, admin):
    """GET /api/shop still says the flat fee (the default, and what a cart without a PIN pays), and lists the
    zones that have a fee of their own."""
    set_rules(client, admin, zones={"metro": zone_rule(65, 2, 4), "special": zone_rule("120.50", 6, 10)})
    body = client.get("/api/shop").get_json()
    assert body["shippingFee"] == 40
    assert body["zoneShippingFees"] == {"metro": 65, "special": 120.5}
