"""The account remembers the shopper's delivery PIN (issue 14): shown on the user reply, changed by the
profile update (a book page's PIN check sends it) and set by every order the signed-in shopper places."""
import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import User
from tests.factories import ADDRESS
from tests.helpers import assert_refused
from tests.orders_helpers import placed


def stored_pin(email: str = "shopper@example.in") -> str | None:
    db.session.expire_all()
    return db.session.scalar(select(User.delivery_pin).where(User.email == email))


def test_a_new_account_has_no_delivery_pin(client, auth):
    """The user reply carries deliveryPin, null until the shopper gives one."""
    headers = auth.customer()
    reply = client.get("/api/auth/profile", headers=headers).get_json()
    assert reply["success"] is True and reply["user"]["deliveryPin"] is None
    assert stored_pin() is None


def test_the_profile_update_sets_and_clears_the_pin(client, auth):
    """PUT /api/auth/profile {deliveryPin} stores the PIN (spaces dropped); null forgets it; names are kept."""
    headers = auth.customer()
    reply = client.put("/api/auth/profile", json={"deliveryPin": "799 001"}, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["user"]["deliveryPin"] == "799001"
    assert stored_pin() == "799001"
    assert client.get("/api/auth/profile", headers=headers).get_json()["user"]["deliveryPin"] == "799001"
    cleared = client.put("/api/auth/profile", json={"deliveryPin": None}, headers=headers)
    assert cleared.status_code == 200 and cleared.get_json()["user"]["deliveryPin"] is None
    assert stored_pin() is None


@pytest.mark.parametrize("pin", ["079900", "79900", "7990011", "abcdef", "७९९००१", 799001])
def test_a_malformed_pin_is_refused_and_changes_nothing(client, auth, pin):
    """A PIN that is not 6 digits (first not 0) is a 422 on deliveryPin; the stored PIN stays."""
    headers = auth.customer()
    client.put("/api/auth/profile", json={"deliveryPin": "560001"}, headers=headers)
    response = client.put("/api/auth/profile", json={"deliveryPin": pin}, headers=headers)
    assert_refused(response, 422, field="deliveryPin")
    assert stored_pin() == "560001"


def test_the_pin_needs_a_signed_in_shopper(client):
    """Without a token the profile update is 401."""
    assert_refused(client.put("/api/auth/profile", json={"deliveryPin": "560001"}), 401)


def test_an_order_remembers_its_pin_on_the_account(client, auth, factories):
    """A signed-in shopper's order sets the account's delivery PIN to the order's; a guest order sets none."""
    book = factories.book(title="KVPY Physics", price_paise=20000, stock=5)
    headers = auth.customer()
    placed(client, [(book, 1)], headers=headers, shippingAddress={**ADDRESS, "zipCode": "560034"})
    assert stored_pin() == "560034"
    placed(client, [(book, 1)], shippingAddress={**ADDRESS, "email": "shopper@example.in", "zipCode": "560001"})
    assert stored_pin() == "560034"
