"""Delivery to a PIN (issue 14): the offline directory, the estimate from the shop's dispatch rules
(cut-off in IST, Sundays and listed holidays, business days per zone) and the COD answer."""
from datetime import date, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import ShopSetting, User
from bookstore.services import delivery
from bookstore.services.india import IST

FIELDS = {"success", "pin", "city", "district", "state", "serviceable", "zone", "cod", "codLimit", "codFee",
          "shippingFee", "estimate", "message"}


def at(text: str) -> datetime:
    """A moment of India time, e.g. at("2026-12-01 10:00") (a Tuesday)."""
    return datetime.fromisoformat(text).replace(tzinfo=IST)


@pytest.fixture
def clock(monkeypatch):
    """Fix the shop's clock: clock.set(at("...")) (UTC inside, as the service reads it)."""
    class Clock:
        def set(self, moment: datetime):
            monkeypatch.setattr(delivery, "utcnow", lambda: moment.astimezone(timezone.utc))
    return Clock()


def change_settings(**changes):
    """Store settings through the service, as the admin API does."""
    admin = db.session.scalar(select(User).where(User.email == "settings-admin@example.in"))
    if admin is None:
        admin = User(email="settings-admin@example.in", password_hash="x", role="admin", first_name="A",
                     last_name="B")
        db.session.add(admin)
        db.session.commit()
    delivery.update_settings(changes, admin)


def estimate(client, pin: str) -> dict:
    response = client.get(f"/api/delivery/{pin}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# ------------------------------------------------------------------ the directory

@pytest.mark.parametrize("pin, city, district, state", [
    ("560001", "Bengaluru", "Bengaluru Urban", "Karnataka"),
    ("110025", "Delhi", "South", "Delhi"),
    ("400070", "Mumbai", "Mumbai Suburban", "Maharashtra"),
    ("744101", "Port Blair", "South Andamans", "Andaman and Nicobar Islands"),
    ("333705", "Mukundgarh", "Jhunjhunu", "Rajasthan"),
    ("396193", "Dungra", "Valsad", "Gujarat"),  # straddles two states: the primary one, with its own office
])
def test_a_known_pin_names_its_place(client, pin, city, district, state):
    """A PIN in India Post's directory answers its district and state (official names) and a city."""
    body = estimate(client, pin)
    assert set(body) == FIELDS
    assert body["success"] is True and body["serviceable"] is True
    assert (body["pin"], body["city"], body["district"], body["state"]) == (pin, city, district, state)


def test_spaces_inside_a_pin_are_ignored(client):
    """'560 001' is 560001."""
    body = estimate(client, "560 001")
    assert body["pin"] == "560001" and body["city"] == "Bengaluru"
    assert estimate(client, " 560001 ")["pin"] == "560001"


@pytest.mark.parametrize("pin", ["999999", "100000", "560999"])
def test_an_unknown_well_formed_pin_is_an_answer_not_an_error(client, pin):
    """We can't confirm delivery: 200 with serviceable false and no place, dates or COD; nothing written."""
    body = estimate(client, pin)
    assert body == {"success": True, "pin": pin, "city": None, "district": None, "state": None,
                    "serviceable": False, "zone": None, "cod": False, "codLimit": None, "codFee": None,
                    "shippingFee": 40, "estimate": None, "message": "We can't confirm delivery to this PIN."}
    assert db.session.scalar(select(func.count()).select_from(ShopSetting)) == 0


@pytest.mark.parametrize("pin", ["012345", "56000", "5600011", "56O001", "abcdef", "560-001", "+560001",
                                 "560001.0", "%E0%A5%AB%E0%A5%AC%E0%A5%A6%E0%A5%A6%E0%A5%A6%E0%A5%A7",  # ५६०००१
                                 "%20", "5" * 200])
def test_a_malformed_pin_is_422_in_the_envelope(client, pin):
    """A PIN that is not 6 digits or starts with 0 is 422 in the error envelope."""
    response = client.get(f"/api/delivery/{pin}")
    assert response.status_code == 422
    assert response.get_json() == {"success": False, "message": "PIN code must be 6 digits and cannot start with 0.",
                                   "errors": {"pin": ["PIN code must be 6 digits and cannot start with 0."]}}


def test_the_endpoint_is_not_rate_limited(client):
    """Shoppers behind one address (a college, an office) check PINs freely."""
    for _ in range(150):
        assert client.get("/api/delivery/560001").status_code == 200


def test_the_openapi_document_describes_delivery_and_its_settings(client):
    """The OpenAPI document describes the delivery answer's fields and the shop-settings GET and PUT."""
    spec = client.get("/api/openapi.json").get_json()
    reply = spec["paths"]["/api/delivery/{pin}"]["get"]["responses"]["200"]["content"]["application/json"]
    schema = spec["components"]["schemas"][reply["schema"]["$ref"].rsplit("/", 1)[1]]
    assert FIELDS <= set(schema["properties"])
    assert {"get", "put"} <= set(spec["paths"]["/api/admin/shop-settings"])


# ------------------------------------------------------------------ the estimate (dispatch 560001, defaults)

def test_an_order_before_the_cut_off_leaves_that_day(client, clock):
    """Same city is 1-2 business days; Tuesday 10:00 IST leaves on Tuesday."""
    clock.set(at("2026-12-01 10:00"))
    body = estimate(client, "560034")
    assert body["zone"] == "sameCity"
    assert body["estimate"] == {"from": "2026-12-02", "to": "2026-12-03"}
    assert body["message"] == ("Delivery to Bengaluru between Wed 2 Dec and Thu 3 Dec. "
                               "Cash on delivery available up to ₹5,000.")


@pytest.mark.parametrize("moment", ["2026-12-01 14:00", "2026-12-01 15:30", "2026-12-01 23:59"])
def test_an_order_from_the_cut_off_on_leaves_the_next_working_day(client, clock, moment):
    """An order from the dispatch cut-off on leaves the next working day, so the estimate moves a day."""
    clock.set(at(moment))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-03", "to": "2026-12-04"}


def test_the_cut_off_is_read_in_india_time(client, clock):
    """20:00 UTC on Tuesday is 01:30 on Wednesday in India: Wednesday's dispatch."""
    clock.set(datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-03", "to": "2026-12-04"}
    clock.set(datetime(2026, 12, 1, 8, 29, tzinfo=timezone.utc))  # 13:59 IST
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-02", "to": "2026-12-03"}


def test_sundays_do_not_count(client, clock):
    """Friday's dispatch: Saturday, then Monday (not Sunday). Saturday after the cut-off and Sunday
    itself dispatch on Monday."""
    clock.set(at("2026-12-04 10:00"))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-05", "to": "2026-12-07"}
    clock.set(at("2026-12-05 16:00"))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-08", "to": "2026-12-09"}
    clock.set(at("2026-12-06 09:00"))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-08", "to": "2026-12-09"}


def test_listed_holidays_do_not_count(client, clock):
    """A holiday in transit is skipped; an order on a holiday waits for the next working day."""
    change_settings(holidays=["2026-12-02"])
    clock.set(at("2026-12-01 10:00"))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-03", "to": "2026-12-04"}
    clock.set(at("2026-12-02 10:00"))
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-04", "to": "2026-12-05"}
    change_settings(holidays=["2026-12-01", "2026-12-03"])
    clock.set(at("2026-12-01 09:00"))
    # Dispatch Wednesday 2; Thursday 3 is a holiday; then Friday 4 and Saturday 5.
    assert estimate(client, "560034")["estimate"] == {"from": "2026-12-04", "to": "2026-12-05"}


@pytest.mark.parametrize("pin, zone, dates", [
    ("560100", "sameCity", ("2026-12-02", "2026-12-03")),      # 1-2 days
    ("570001", "sameState", ("2026-12-03", "2026-12-05")),     # Mysuru: 2-4
    ("110001", "metro", ("2026-12-03", "2026-12-05")),         # Bengaluru to Delhi: 2-4
    ("400001", "metro", ("2026-12-03", "2026-12-05")),
    ("411001", "restOfIndia", ("2026-12-05", "2026-12-09")),   # Pune: 4-7, over Sunday 6
    ("302001", "restOfIndia", ("2026-12-05", "2026-12-09")),
    ("781001", "special", ("2026-12-08", "2026-12-12")),       # Guwahati: 6-10
    ("190001", "special", ("2026-12-08", "2026-12-12")),       # Srinagar
    ("194101", "special", ("2026-12-08", "2026-12-12")),       # Leh
    ("744101", "special", ("2026-12-08", "2026-12-12")),       # Port Blair
    ("682555", "special", ("2026-12-08", "2026-12-12")),       # Kavaratti
])
def test_each_zone_has_its_business_days(client, clock, pin, zone, dates):
    """Each delivery zone's estimate counts its own range of business days."""
    clock.set(at("2026-12-01 10:00"))
    body = estimate(client, pin)
    assert body["zone"] == zone
    assert body["estimate"] == {"from": dates[0], "to": dates[1]}


def test_zones_follow_the_dispatch_pin_and_the_admins_days(client, clock):
    """From Delhi: any Delhi district is the same city, Noida (Uttar Pradesh) is not; from Guwahati, the
    rest of Assam is the same state and Delhi is special."""
    clock.set(at("2026-12-01 10:00"))
    change_settings(dispatch_pin="110001", zones={"restOfIndia": {"min_days": 3, "max_days": 3, "cod": True}})
    assert estimate(client, "110025")["zone"] == "sameCity"
    assert estimate(client, "400001")["zone"] == "metro"
    noida = estimate(client, "201301")
    assert noida["zone"] == "restOfIndia" and noida["estimate"] == {"from": "2026-12-04", "to": "2026-12-04"}
    assert noida["message"].startswith("Delivery to Noida on Fri 4 Dec.")
    change_settings(dispatch_pin="781001")
    assert estimate(client, "781006")["zone"] == "sameCity"
    assert estimate(client, "785001")["zone"] == "sameState"
    assert estimate(client, "110001")["zone"] == "special"


# ------------------------------------------------------------------ COD and serviceability

def test_cod_follows_zone_rules_pin_exceptions_and_fees(client):
    """Cash on delivery follows the zone's rule unless the PIN has an exception, and shows the shop's limit and fee."""
    change_settings(zones={"special": {"min_days": 6, "max_days": 10, "cod": False}},
                    cod_pins={"781001": True, "560034": False}, cod_fee_paise=2500, cod_limit_paise=300050)
    on = estimate(client, "560001")
    assert (on["cod"], on["codLimit"], on["codFee"]) == (True, 3000.5, 25)
    assert on["message"].endswith("Cash on delivery available up to ₹3,000.50 (fee ₹25).")
    off = estimate(client, "560034")
    assert (off["cod"], off["codLimit"], off["codFee"]) == (False, None, None)
    assert off["message"].endswith("Cash on delivery is not available for this PIN.")
    assert off["serviceable"] is True and off["estimate"] is not None
    assert estimate(client, "190001")["cod"] is False   # special zone, COD off
    assert estimate(client, "781001")["cod"] is True    # special zone, but this PIN's exception


def test_the_defaults_offer_cod_everywhere_up_to_5000_rupees_free(client):
    """By default every serviceable PIN gets cash on delivery up to ₹5,000 with no fee."""
    for pin in ("560001", "570001", "110001", "411001", "744101"):
        body = estimate(client, pin)
        assert (body["serviceable"], body["cod"], body["codLimit"], body["codFee"]) == (True, True, 5000, 0)


def test_a_pin_the_shop_rules_out_is_not_serviceable(client):
    """A PIN the shop rules out is not serviceable (no COD, no estimate), while its neighbours still are."""
    change_settings(unserviceable_pins=["744101"])
    body = estimate(client, "744101")
    assert body["city"] == "Port Blair"
    assert (body["serviceable"], body["cod"], body["estimate"], body["zone"]) == (False, False, None, None)
    assert body["message"] == "We don't deliver to this PIN yet."
    assert estimate(client, "744102")["serviceable"] is True


# ------------------------------------------------------------------ the service, as checkout reads it

def test_the_service_takes_a_clock_and_reads_the_rules(app):
    """estimate(pin, now) for checkout; rules() is typed, with the product §10.6 defaults."""
    answer = delivery.estimate("560 034", at("2026-12-01 10:00"))
    assert (answer.pin, answer.zone, answer.earliest, answer.latest) == ("560034", "sameCity", date(2026, 12, 2),
                                                                         date(2026, 12, 3))
    rules = delivery.rules()
    assert (rules.cod_limit_paise, rules.cod_fee_paise, rules.shipping_paise) == (500000, 0, 4000)
    assert rules.free_shipping_threshold_paise is None and rules.shipping_for(10_000_000) == 4000
    # The deployment's settings start these two (the suite raises the open-COD cap for its own orders).
    assert (rules.open_cod_orders_per_contact, rules.max_quantity_per_line) == \
        (app.config["OPEN_COD_ORDERS_PER_CONTACT"], app.config["MAX_QUANTITY_PER_LINE"])
    assert rules.cod_for(delivery.lookup("744101")) is True and rules.cod_for(None) is False
    change_settings(free_shipping_threshold_paise=99900)
    assert delivery.rules().shipping_for(99900) == 0 and delivery.rules().shipping_for(99899) == 4000
    with pytest.raises(delivery.ValidationFailed):
        delivery.lookup("012345")
    assert delivery.rules().add_working_days(date(2026, 12, 5), 1) == date(2026, 12, 7)
    assert delivery.rupees_text(10_000_000) == "₹1,00,000" and delivery.rupees_text(4950) == "₹49.50"
    assert delivery.estimate("560034", at("2026-12-01 10:00") + timedelta(hours=4)).earliest == date(2026, 12, 3)
