"""Shop settings (issue 14, product §10.6): administrators read and change the delivery, fee and COD
rules; defaults need no rows; every change is audited; bad values are 422 and change nothing."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import AuditEntry, ShopSetting
from tests.helpers import assert_refused

URL = "/api/admin/shop-settings"

DEFAULTS = {
    "dispatchPin": "560001",
    "dispatchCutoff": "14:00",
    "holidays": [],
    "zones": {
        "sameCity": {"minDays": 1, "maxDays": 2, "cod": True, "shippingFee": None},
        "sameState": {"minDays": 2, "maxDays": 4, "cod": True, "shippingFee": None},
        "metro": {"minDays": 2, "maxDays": 4, "cod": True, "shippingFee": None},
        "restOfIndia": {"minDays": 4, "maxDays": 7, "cod": True, "shippingFee": None},
        "special": {"minDays": 6, "maxDays": 10, "cod": True, "shippingFee": None},
    },
    "unserviceablePins": [],
    "codPins": {},
    "codLimit": 5000,
    "codFee": 0,
    "shippingFee": 40,
    "freeShippingThreshold": None,
    "openCodOrdersPerContact": 3,
    "maxQuantityPerLine": 10,
    "unpaidCopiesPerBuyer": 50,
    "largeCodCopies": 10,
    "contactEmail": "",
    "contactPhone": "",
    "contactHours": "",
    "socialLinks": {},
    # The seller on bills of supply and in e-mail footers (the address also on the contact page); no GSTIN: not
    # registered.
    "sellerName": "Bookstore",
    "sellerAddress": "2nd Floor, MG Road, Bengaluru, Karnataka 560001",
    "sellerGstin": "",
}


@pytest.fixture
def app(make_app):
    """The shop at the deployment's default limits (the rest of the suite raises the anti-hoarding ones)."""
    from bookstore.extensions import db
    from tests.conftest import empty_database
    app = make_app(OPEN_COD_ORDERS_PER_CONTACT="3", MAX_QUANTITY_PER_LINE="10", UNPAID_COPIES_PER_BUYER="50")
    with app.app_context():
        empty_database()
        yield app
        db.session.remove()


@pytest.fixture
def admin(auth):
    return auth.admin()


def test_the_deployment_settings_are_the_defaults_of_the_limits(make_app, auth):
    """MAX_QUANTITY_PER_LINE and OPEN_COD_ORDERS_PER_CONTACT start the two shop settings; an admin's
    saved value wins over them."""
    from tests.conftest import empty_database
    from tests.factories import Factories
    from tests.conftest import Auth
    app = make_app(OPEN_COD_ORDERS_PER_CONTACT="5", MAX_QUANTITY_PER_LINE="4")
    with app.app_context():
        empty_database()
        client = app.test_client()
        admin = Auth(client, Factories()).admin()
        shown = client.get(URL, headers=admin).get_json()["settings"]
        assert (shown["openCodOrdersPerContact"], shown["maxQuantityPerLine"]) == (5, 4)
        assert client.put(URL, headers=admin, json={"maxQuantityPerLine": 7}).status_code == 200
        assert client.get(URL, headers=admin).get_json()["settings"]["maxQuantityPerLine"] == 7


def leaves(errors) -> list[str]:
    """Every message of a (nested) field error."""
    if isinstance(errors, dict):
        return [text for value in errors.values() for text in leaves(value)]
    if isinstance(errors, list):
        return [text for value in errors for text in leaves(value)]
    return [errors]


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def test_the_defaults_are_decisions_9_and_reading_them_writes_nothing(client, admin):
    """Every PIN serviceable, COD everywhere up to ₹5,000 at no fee, ₹40 shipping, no free-shipping
    threshold, 3 open COD orders per contact, 10 copies per line."""
    response = client.get(URL, headers=admin)
    assert response.status_code == 200
    assert response.get_json() == {"success": True, "settings": DEFAULTS}
    assert count(ShopSetting) == 0


def test_a_change_keeps_what_was_not_sent_and_is_audited(client, admin):
    """A settings change stores what was sent (normalised), keeps every other setting and is audited."""
    response = client.put(URL, headers=admin, json={
        "codLimit": "2500.50", "freeShippingThreshold": 999, "dispatchCutoff": "16:30",
        "holidays": ["2026-12-25", "2026-01-26", "2026-12-25"],
        "zones": {"metro": {"minDays": 1, "maxDays": 3, "cod": False}},
        "codPins": {"744 101": False}, "unserviceablePins": ["682555"],
    })
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True and body["message"] == "Settings saved."
    expected = {**DEFAULTS, "codLimit": 2500.5, "freeShippingThreshold": 999, "dispatchCutoff": "16:30",
                "holidays": ["2026-01-26", "2026-12-25"], "codPins": {"744101": False},
                "unserviceablePins": ["682555"],
                "zones": {**DEFAULTS["zones"], "metro": {"minDays": 1, "maxDays": 3, "cod": False, "shippingFee": None}}}
    assert body["settings"] == expected
    assert client.get(URL, headers=admin).get_json()["settings"] == expected
    stored = {row.key: row.value for row in db.session.scalars(select(ShopSetting))}
    assert stored["cod_limit_paise"] == 250050 and stored["free_shipping_threshold_paise"] == 99900
    assert "shipping_paise" not in stored  # unchanged settings keep no row
    entry = db.session.scalars(select(AuditEntry)).one()
    assert (entry.action, entry.entity_type, entry.entity_id, entry.actor_email) == (
        "settings.update", "shop_settings", "shop", "admin@example.in")
    assert entry.before["cod_limit_paise"] == 500000 and entry.after["cod_limit_paise"] == 250050
    assert entry.before["holidays"] == [] and entry.after["holidays"] == ["2026-01-26", "2026-12-25"]
    assert set(entry.after) == {"cod_limit_paise", "free_shipping_threshold_paise", "dispatch_cutoff", "holidays",
                                "zones", "cod_pins", "unserviceable_pins"}

    # Saving the same values again changes nothing and logs nothing; null turns the threshold off.
    assert client.put(URL, headers=admin, json={"codLimit": 2500.5}).status_code == 200
    assert count(AuditEntry) == 1
    again = client.put(URL, headers=admin, json={"freeShippingThreshold": None, "zones": {
        "sameCity": {"minDays": 0, "maxDays": 1, "cod": True}}}).get_json()["settings"]
    assert again["freeShippingThreshold"] is None
    assert again["zones"]["sameCity"] == {"minDays": 0, "maxDays": 1, "cod": True, "shippingFee": None}
    assert again["zones"]["metro"] == {"minDays": 1, "maxDays": 3, "cod": False, "shippingFee": None}
    assert count(AuditEntry) == 2


def test_an_empty_put_changes_nothing(client, admin):
    """An empty settings change is refused (nothing to change: 422 naming the body) and stores and audits nothing."""
    response = client.put(URL, headers=admin, json={})
    assert_refused(response, 422, "Send at least one field to change.", field="body")
    assert client.get(URL, headers=admin).get_json()["settings"] == DEFAULTS
    assert count(ShopSetting) == 0 and count(AuditEntry) == 0


@pytest.mark.parametrize("body, field, message", [
    ({"dispatchPin": "012345"}, "dispatchPin", "PIN code must be 6 digits and cannot start with 0."),
    ({"dispatchPin": 560001}, "dispatchPin", "PIN code must be 6 digits and cannot start with 0."),
    ({"dispatchPin": "999999"}, "dispatchPin", "The dispatch PIN must be a PIN in the directory."),
    ({"dispatchPin": None}, "dispatchPin", "Field may not be null."),
    ({"dispatchCutoff": "25:00"}, "dispatchCutoff", "Must be a time like 14:00 (24-hour, India time)."),
    ({"dispatchCutoff": "9:00"}, "dispatchCutoff", "Must be a time like 14:00 (24-hour, India time)."),
    ({"holidays": ["2026-13-01"]}, "holidays", None),
    ({"holidays": "2026-12-25"}, "holidays", None),
    ({"holidays": ["2026-01-01"] * 367}, "holidays", "At most 366 holidays."),
    ({"zones": {"metro": {"minDays": 5, "maxDays": 3, "cod": True}}}, "zones", "Must be at least minDays."),
    ({"zones": {"metro": {"minDays": 1, "maxDays": 3}}}, "zones", None),
    ({"zones": {"metro": {"minDays": 1, "maxDays": 3, "cod": "yes"}}}, "zones", "Must be true or false."),
    ({"zones": {"metro": {"minDays": 1, "maxDays": 3, "cod": 1}}}, "zones", "Must be true or false."),
    ({"zones": {"metro": {"minDays": 1, "maxDays": 31, "cod": True}}}, "zones",
     "Must be between 0 and 30 business days."),
    ({"zones": {"metro": {"minDays": -1, "maxDays": 3, "cod": True}}}, "zones", None),
    ({"zones": {"metro": {"minDays": 1.5, "maxDays": 3, "cod": True}}}, "zones", None),
    ({"zones": {"moon": {"minDays": 1, "maxDays": 3, "cod": True}}}, "zones", None),
    ({"codLimit": -1}, "codLimit", "Must be between 0 and 10,00,000 rupees."),
    ({"codLimit": 1.234}, "codLimit", "Must be an amount in rupees, like 499 or 499.50."),
    ({"codLimit": "lots"}, "codLimit", "Must be an amount in rupees, like 499 or 499.50."),
    ({"codFee": True}, "codFee", "Must be an amount in rupees, like 499 or 499.50."),
    ({"shippingFee": None}, "shippingFee", "Field may not be null."),
    ({"openCodOrdersPerContact": 101}, "openCodOrdersPerContact", "Must be between 0 and 100."),
    ({"openCodOrdersPerContact": "3.5"}, "openCodOrdersPerContact", None),
    ({"maxQuantityPerLine": 0}, "maxQuantityPerLine", "Must be between 1 and 100."),
    ({"unserviceablePins": ["12345"]}, "unserviceablePins", None),
    ({"codPins": {"12345": True}}, "codPins", None),
    ({"codPins": {"560001": "yes"}}, "codPins", None),
    ({"colour": "blue"}, "colour", "Unknown field."),
    ({"contactEmail": "not-an-address"}, "contactEmail", "Enter a valid e-mail address."),
    ({"contactPhone": "call us"}, "contactPhone", "Enter a phone number of digits, like +91 80 4000 1234."),
    ({"sellerAddress": "x" * 301}, "sellerAddress", "Must be at most 300 characters."),
    ({"socialLinks": {"facebook": "https://www.facebook.com/"}}, "socialLinks",
     "Must be the shop's own page, not the platform's home page."),
    ({"socialLinks": {"x": "https://x.com"}}, "socialLinks", "Must be the shop's own page, not the platform's home page."),
    ({"socialLinks": {"instagram": "http://instagram.com/shop"}}, "socialLinks",
     "Must be an https:// address on instagram.com."),
    ({"socialLinks": {"youtube": "https://evil.example/youtube.com/shop"}}, "socialLinks",
     "Must be an https:// address on youtube.com."),
    ({"socialLinks": {"myspace": "https://myspace.com/shop"}}, "socialLinks", None),
])
def test_bad_values_are_422_and_change_nothing(client, admin, body, field, message):
    """Any invalid setting is 422 on its field and nothing is stored or audited."""
    response = client.put(URL, headers=admin, json=body)
    assert response.status_code == 422, response.get_json()
    reply = response.get_json()
    assert reply["success"] is False and field in reply["errors"]
    if message:
        assert message in leaves(reply["errors"][field])
    assert reply["message"]
    assert count(ShopSetting) == 0 and count(AuditEntry) == 0


def test_contact_details_and_profiles_are_saved_trimmed_and_shown_to_shoppers(client, admin):
    """Contact e-mail, phone, the shop's address, hours and social profiles are saved (trimmed, e-mail lower-cased,
    empty profiles dropped), audited, and reach GET /api/shop; emptied again, they leave the shop reply empty but
    for the address (the seller's, which bills need)."""
    body = {"contactEmail": " Help@Shop.Example.IN ", "contactPhone": "+91 80 4000 1234",
            "sellerAddress": " 2nd Floor, MG Road, Bengaluru 560001 ", "contactHours": "Mon to Sat, 9 to 6",
            "socialLinks": {"facebook": "https://www.facebook.com/our.bookstore", "x": "", "youtube": ""}}
    response = client.put(URL, headers=admin, json=body)
    assert response.status_code == 200, response.get_json()
    saved = response.get_json()["settings"]
    assert (saved["contactEmail"], saved["contactPhone"], saved["sellerAddress"], saved["socialLinks"]) == (
        "help@shop.example.in", "+91 80 4000 1234", "2nd Floor, MG Road, Bengaluru 560001",
        {"facebook": "https://www.facebook.com/our.bookstore"})
    assert count(AuditEntry) == 1
    assert db.session.get(ShopSetting, "contact_email").value == "help@shop.example.in"
    shop = client.get("/api/shop").get_json()
    assert shop["contact"] == {"email": "help@shop.example.in", "phone": "+91 80 4000 1234",
                               "address": "2nd Floor, MG Road, Bengaluru 560001", "hours": "Mon to Sat, 9 to 6"}
    assert shop["socialLinks"] == {"facebook": "https://www.facebook.com/our.bookstore"}
    cleared = client.put(URL, headers=admin, json={"contactEmail": "", "contactPhone": " ", "contactHours": "",
                                                   "socialLinks": {}})
    assert cleared.status_code == 200, cleared.get_json()
    shop = client.get("/api/shop").get_json()
    assert shop["contact"] == {"email": "", "phone": "", "address": "2nd Floor, MG Road, Bengaluru 560001",
                               "hours": ""} and shop["socialLinks"] == {}


def test_a_body_that_is_no_object_is_400(client, admin):
    """A settings body that is not a JSON object is 400 and stores nothing."""
    response = client.put(URL, headers=admin, json=["codFee", 10])
    assert response.status_code == 400 and response.get_json()["success"] is False
    assert count(ShopSetting) == 0


def test_only_administrators_reach_the_settings(client, auth):
    """401 without a token or with a bad one, 403 for a shopper, for reads and writes alike."""
    shopper = auth.customer()
    for method in ("GET", "PUT"):
        assert client.open(URL, method=method, json={"codFee": 10}).status_code == 401
        assert client.open(URL, method=method, json={"codFee": 10},
                           headers={"Authorization": "Bearer nope"}).status_code == 401
        refused = client.open(URL, method=method, json={"codFee": 10}, headers=shopper)
        assert refused.status_code == 403
        assert refused.get_json() == {"success": False, "message": "Administrator access required."}
    assert count(ShopSetting) == 0 and count(AuditEntry) == 0


def test_changed_settings_reach_the_delivery_answer(client, admin):
    """Changed settings are used at once by the delivery answer."""
    client.put(URL, headers=admin, json={"codFee": 30, "zones": {"sameCity": {"minDays": 0, "maxDays": 0,
                                                                              "cod": True}}})
    body = client.get("/api/delivery/560034").get_json()
    assert body["codFee"] == 30 and body["estimate"]["from"] == body["estimate"]["to"]
