"""What /api/openapi.json promises beyond the shapes schemathesis checks: nullable fields, the 414 every
operation can answer, the constraints the schemas enforce (PIN pattern, medium enum), and partial PUTs that
refuse a body with nothing to change."""
import re

import pytest

from bookstore.extensions import db
from bookstore.models import Book, User
from tests.helpers import assert_refused

PARTIAL_PUTS = [("/api/books/{book_id}", "BookUpdate"), ("/api/auth/profile", "ProfileUpdate"),
                ("/api/addresses/{address_id}", "SavedAddressChange"), ("/api/admin/shop-settings", "ShopSettings"),
                ("/api/admin/kits/{kit_id}", "KitUpdate"), ("/api/admin/coupons/{coupon_id}", "CouponUpdate"),
                ("/api/admin/couriers/{courier_id}", "CourierUpdate"),
                ("/api/books/{book_id}/reviews/mine", "ReviewUpdate")]


@pytest.fixture
def spec(client) -> dict:
    return client.get("/api/openapi.json").get_json()


def _schema(spec, name: str) -> dict:
    matches = [schema for key, schema in spec["components"]["schemas"].items() if re.sub(r"\d+$", "", key) == name]
    assert matches, name
    return matches[0]


def test_a_contact_message_without_a_phone_is_documented(spec):
    """The inbox answers phone: null for a message sent without one; the document says it may."""
    assert _schema(spec, "ContactMessage")["properties"]["phone"] == {"type": "string", "nullable": True}


def test_every_operation_lists_the_414(spec):
    """A path and query over 4,096 characters is 414 in the envelope on every operation, and the document says so."""
    operations = [(path, method, op) for path, item in spec["paths"].items() for method, op in item.items()
                  if method in ("get", "post", "put", "patch", "delete")]
    assert len(operations) > 100
    for path, method, operation in operations:
        assert operation["responses"]["414"] == {"$ref": "#/components/responses/URI_TOO_LONG"}, (method, path)
    assert spec["components"]["responses"]["URI_TOO_LONG"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"}


def test_pin_and_medium_constraints_are_documented(spec):
    """The PIN code fields carry their pattern and the book's medium its three values."""
    pin = [p for p in spec["paths"]["/api/delivery/{pin}"]["get"]["parameters"] if p["name"] == "pin"][0]["schema"]
    assert re.fullmatch(pin["pattern"], "560 001") and not re.fullmatch(pin["pattern"], "060001")
    assert _schema(spec, "ProfileUpdate")["properties"]["deliveryPin"]["pattern"] == pin["pattern"]
    zip_code = _schema(spec, "ShippingAddressInput")["properties"]["zipCode"]
    assert re.fullmatch(zip_code["pattern"], "560001") and not re.fullmatch(zip_code["pattern"], "56000")
    for name in ("BookInput", "BookUpdate"):
        assert _schema(spec, name)["properties"]["medium"]["enum"] == ["english", "hindi", "bilingual"]


def test_partial_puts_are_documented_as_needing_a_field(spec):
    for path, name in PARTIAL_PUTS:
        assert path in spec["paths"] and "put" in spec["paths"][path], path
        assert _schema(spec, name)["minProperties"] == 1, name


def test_a_partial_put_with_nothing_to_change_is_422(client, auth, factories):
    """PUT {} on a book or a profile changes nothing and says so (422 naming the body), instead of a 200."""
    admin = auth.admin()
    shopper = auth.customer()
    book = factories.book(title="SSC CGL Guide", stock=4)
    for path, headers in ((f"/api/books/{book.id}", admin), ("/api/auth/profile", shopper),
                          ("/api/admin/shop-settings", admin)):
        reply = assert_refused(client.put(path, json={}, headers=headers), 422,
                               "Send at least one field to change.", field="body")
        assert reply["errors"]["body"] == ["Send at least one field to change."]
        # Fields the schema drops are no change either.
        assert_refused(client.put(path, json={"role": "admin"} if "profile" in path else {}, headers=headers), 422)
    db.session.expire_all()
    assert db.session.get(Book, book.id).title == "SSC CGL Guide"
    assert db.session.query(User).filter_by(email="shopper@example.in").one().role != "admin"
    reply = client.put("/api/auth/profile", json={"firstName": "Asha"}, headers=shopper)
    assert reply.status_code == 200 and reply.get_json()["user"]["firstName"] == "Asha"
