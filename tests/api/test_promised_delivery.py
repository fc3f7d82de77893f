"""The delivery dates promised when an order is placed (issue 14): kept on the order, shown in every
order reply and in the e-mails of an order on its way, and unchanged by later rule changes."""
from datetime import datetime, timezone

import pytest

from bookstore.services import checkout
from bookstore.services.india import IST
from tests.orders_helpers import ADDRESS, order_row, placed

TUESDAY_MORNING = datetime(2026, 12, 1, 10, 0, tzinfo=IST)  # before the 14:00 cut-off: leaves on Tuesday
SAME_CITY = {"from": "2026-12-02", "to": "2026-12-03"}       # Bengaluru from the Bengaluru dispatch PIN


@pytest.fixture
def tuesday_morning(monkeypatch):
    """Orders are placed at Tuesday 1 December 2026, 10:00 India time."""
    monkeypatch.setattr(checkout, "utcnow", lambda: TUESDAY_MORNING.astimezone(timezone.utc))


@pytest.fixture
def book(factories):
    return factories.book(title="NEET Biology", price_paise=45000, stock=10)


def test_an_order_keeps_the_dates_promised_when_it_was_placed(client, auth, book, tuesday_morning):
    """The estimate for the order's PIN at placement is stored and answered by the shopper's, guest and admin reads."""
    shopper = auth.customer()
    order = placed(client, [(book, 1)], headers=shopper, shippingAddress={**ADDRESS, "zipCode": "560034"})
    assert order["promisedDelivery"] == SAME_CITY
    stored = order_row(order["_id"])
    assert (stored.promised_from.isoformat(), stored.promised_to.isoformat()) == ("2026-12-02", "2026-12-03")
    mine = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]
    guest = client.get("/api/orders/lookup", query_string={"orderNumber": order["orderNumber"],
                                                           "email": ADDRESS["email"]}).get_json()["order"]
    admin = client.get(f"/api/admin/orders/{order['_id']}", headers=auth.admin()).get_json()["order"]
    assert mine["promisedDelivery"] == guest["promisedDelivery"] == admin["promisedDelivery"] == SAME_CITY


def test_later_rule_changes_do_not_rewrite_a_promise(client, auth, book, tuesday_morning):
    """An admin slowing the same-city zone afterwards changes new estimates, not the dates an order was given."""
    order = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "zipCode": "560034"})
    response = client.put("/api/admin/shop-settings", headers=auth.admin(),
                          json={"zones": {"sameCity": {"minDays": 4, "maxDays": 6, "cod": True}}})
    assert response.status_code == 200, response.get_json()
    second = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "zipCode": "560034"})
    assert second["promisedDelivery"] == {"from": "2026-12-05", "to": "2026-12-08"}  # Sunday 6 Dec skipped
    assert order_row(order["_id"]).promised_from.isoformat() == "2026-12-02"


def test_a_pin_the_directory_does_not_know_gets_no_promise(shop, book, tuesday_morning):
    """The shop still delivers to a well-formed PIN it cannot place (paid online), but promises no dates for it."""
    order = placed(shop, [(book, 1)], "online", shippingAddress={**ADDRESS, "zipCode": "999999"})
    assert order["promisedDelivery"] is None
    assert order_row(order["_id"]).promised_from is None


class TestMails:
    """The dates reach the shopper's e-mails while the parcel is on its way."""

    @pytest.fixture
    def app(self, mail_app):
        return mail_app

    def test_the_order_mail_says_when_it_arrives(self, client, book, smtp_sink, tuesday_morning):
        """The placement mail of a cash order names the promised range after the address."""
        placed(client, [(book, 1)], shippingAddress={**ADDRESS, "zipCode": "560034"})
        text = smtp_sink.body(0)
        assert "Delivering to Asha Verma" in text
        assert "Arriving between Wed 2 Dec and Thu 3 Dec." in text

    def test_cancelled_and_delivered_mails_promise_nothing(self, client, auth, book, smtp_sink, tuesday_morning):
        """Once an order is cancelled or delivered its mails neither promise dates nor say it is being delivered."""
        admin = auth.admin()
        cancelled = placed(client, [(book, 1)])
        delivered = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "phone": "9876543211"})
        assert client.put(f"/api/admin/orders/{cancelled['_id']}/status", json={"status": "cancelled"},
                          headers=admin).status_code == 200
        for status in ("processing", "shipped", "delivered"):
            response = client.put(f"/api/admin/orders/{delivered['_id']}/status", json={"status": status},
                                  headers=admin)
            assert response.status_code == 200, response.get_json()
        bodies = {message["Subject"]: smtp_sink.body(n) for n, message in enumerate(smtp_sink.messages)}
        shipped = bodies[f"Order {delivered['orderNumber']} is now shipped"]
        assert "Arriving between" in shipped and "Delivering to" in shipped
        for subject in (f"Order {cancelled['orderNumber']} is now cancelled",
                        f"Order {delivered['orderNumber']} is now delivered"):
            assert "Arriving" not in bodies[subject] and "Delivering to" not in bodies[subject]
