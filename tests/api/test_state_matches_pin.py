"""The shipping state must be the PIN's (issue 14): an order whose state contradicts the state the PIN
directory gives is refused on the state field, unless the shopper confirmed it."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Order
from tests.factories import ADDRESS
from tests.helpers import assert_refused, order_row, stock_of
from tests.orders_helpers import place, placed

MISMATCH = ("PIN code 799001 is in Tripura, not Telangana. Please correct the state or the PIN code, "
            "or confirm that the address is right.")
AGARTALA = {**ADDRESS, "city": "Agartala", "zipCode": "799001"}


@pytest.fixture
def book(factories):
    return factories.book(title="TPSC Guide", price_paise=30000, stock=5)


def orders_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Order))


def test_a_state_other_than_the_pins_is_refused_on_the_state_field(client, book):
    """Telangana with Agartala's PIN is a 422 on shippingAddress.state; nothing is ordered, no stock taken."""
    response = place(client, [(book, 1)], shippingAddress={**AGARTALA, "state": "Telangana"})
    reply = assert_refused(response, 422, MISMATCH, "shippingAddress")
    assert reply["errors"]["shippingAddress"] == {"state": [MISMATCH]}
    assert orders_count() == 0
    assert stock_of(book)[0] == 5


def test_a_confirmed_mismatch_is_placed_with_the_state_chosen(client, book):
    """With confirmedStateMismatch the order is placed with the shopper's state as written."""
    order = placed(client, [(book, 1)], shippingAddress={**AGARTALA, "state": "Telangana"},
                   confirmedStateMismatch=True)
    assert order["shippingAddress"]["state"] == "Telangana"
    assert order_row(order["_id"]).state == "Telangana"


@pytest.mark.parametrize("state", ["Tripura", "  tripura ", "TRIPURA"])
def test_the_pins_own_state_needs_no_confirmation(client, book, state):
    """The PIN's state, in any case or spacing, is placed without confirmation (and stored in its official spelling)."""
    order = placed(client, [(book, 1)], shippingAddress={**AGARTALA, "state": state})
    assert order_row(order["_id"]).state == "Tripura"


def test_an_unknown_pin_is_not_checked_against_a_state(shop, book):
    """A well-formed PIN the directory does not know cannot contradict a state: the order is placed
    (paid online, as cash on delivery needs a known PIN)."""
    order = placed(shop, [(book, 1)], "online", shippingAddress={**ADDRESS, "zipCode": "999999", "state": "Goa"})
    assert order["shippingAddress"]["zipCode"] == "999999"


def test_confirmation_must_be_a_boolean(client, book):
    """A confirmation that is not true or false is a 422 on the field and places nothing."""
    response = place(client, [(book, 1)], shippingAddress={**AGARTALA, "state": "Telangana"},
                     confirmedStateMismatch={"yes": 1})
    assert_refused(response, 422, field="confirmedStateMismatch")
    assert orders_count() == 0
