"""Cash on delivery you can trust and the shipping fee (issue 14), as checkout enforces them from the
rules an admin sets: COD off for a PIN (or a zone), a COD order value cap, a COD fee on its own line,
a PIN the shop does not deliver to, and free shipping above a threshold. The quote says the same
before the shopper chooses."""
import pytest

from bookstore.extensions import db
from bookstore.models import Order, OutboxMail
from tests.factories import ADDRESS, count, place, placed
from tests.helpers import assert_refused

SETTINGS = "/api/admin/shop-settings"


@pytest.fixture
def admin(auth):
    return auth.admin()


@pytest.fixture
def book(factories):
    return factories.book(title="UPSC Prelims Guide", price_paise=150000, stock=20)  # ₹1,500


def set_rules(client, admin, **rules):
    response = client.put(SETTINGS, json=rules, headers=admin)
    assert response.status_code == 200, response.get_json()


def quote(client, book, quantity, **extra):
    response = client.post("/api/cart/quote", json={"orderItems": [{"book": str(book.id), "quantity": quantity}],
                                                    **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_cod_is_refused_for_a_pin_the_admin_ruled_out(client, admin, book):
    """COD off for 560001: the quote says so, a COD order there is 422 on paymentMethod and writes nothing;
    another PIN still takes cash."""
    set_rules(client, admin, codPins={"560001": False})
    answer = quote(client, book, 1, zipCode="560001", paymentMethod="cod")
    assert answer["cashOnDelivery"] == {"available": False,
                                        "reason": "Cash on delivery is not available for this PIN code. Please pay online."}
    response = place(client, [(book, 1)])
    assert_refused(response, 422, field="paymentMethod")
    assert count(Order) == 0
    assert quote(client, book, 1, zipCode="411001")["cashOnDelivery"]["available"] is True
    assert place(client, [(book, 1)], shippingAddress={**ADDRESS, "zipCode": "411001", "city": "Pune",
                                                        "state": "Maharashtra"}).status_code == 201


def test_cod_orders_above_the_cap_are_refused(client, admin, book):
    """The default cap is ₹5,000: four copies (₹6,040 with shipping) cannot be paid in cash."""
    answer = quote(client, book, 4, zipCode="560001")
    assert answer["cashOnDelivery"]["available"] is False
    assert "up to ₹5,000" in answer["cashOnDelivery"]["reason"]
    response = place(client, [(book, 4)])
    assert_refused(response, 422, field="paymentMethod")
    assert "up to ₹5,000" in response.get_json()["message"]
    assert place(client, [(book, 3)]).status_code == 201  # ₹4,540


def test_the_cod_fee_is_its_own_line_in_the_total(client, admin, book):
    """A ₹25 COD fee is added for cash orders only, shown as codFee, and part of the 409 rule."""
    set_rules(client, admin, codFee=25)
    assert quote(client, book, 1, paymentMethod="cod")["codFee"] == 25
    assert quote(client, book, 1, paymentMethod="online")["codFee"] == 0
    stale = place(client, [(book, 1)])  # the old total, without the fee
    assert_refused(stale, 409)
    assert stale.get_json()["current"]["codFee"] == 25 and stale.get_json()["current"]["totalPrice"] == 1565
    order = placed(client, [(book, 1)], totalPrice=1565)
    assert (order["codFee"], order["totalPrice"]) == (25, 1565)


def test_a_pin_the_shop_does_not_deliver_to_is_refused(client, admin, book):
    """An order to a PIN the shop does not deliver to is 422 "We don't deliver to this PIN yet." and stores no order."""
    set_rules(client, admin, unserviceablePins=["560001"])
    response = place(client, [(book, 1)])
    body = assert_refused(response, 422)
    assert body["message"] == "We don't deliver to this PIN yet."
    assert count(Order) == 0


def test_free_shipping_above_the_threshold(client, admin, book, factories):
    """With free shipping from ₹1,000, a ₹1,500 order ships free and a ₹300 one pays ₹40."""
    set_rules(client, admin, freeShippingThreshold=1000)
    cheap = factories.book(title="Pocket Dictionary", price_paise=30000, stock=5)
    assert quote(client, book, 1)["shippingPrice"] == 0
    assert quote(client, cheap, 1)["shippingPrice"] == 40
    order = placed(client, [(book, 1)], shippingPrice=0, totalPrice=1500)
    assert (order["shippingPrice"], order["totalPrice"]) == (0, 1500)


def test_the_quote_says_when_a_contact_has_too_many_open_cod_orders(client, admin, book):
    """With the cap of open COD orders reached for a phone or an e-mail, the quote for that contact offers no
    COD and says why (as the order would be refused); another contact, or an arrived order, frees it again."""
    set_rules(client, admin, openCodOrdersPerContact=1)
    first = placed(client, [(book, 1)])
    reason = ("There are already 1 cash-on-delivery orders on their way to this phone number or e-mail "
              "address. Please pay online, or order again once one has arrived.")
    by_email = quote(client, book, 1, zipCode="560001", email=ADDRESS["email"].upper())
    by_phone = quote(client, book, 1, zipCode="560001", phone="+91 " + ADDRESS["phone"])
    assert by_email["cashOnDelivery"] == by_phone["cashOnDelivery"] == {"available": False, "reason": reason}
    refused = place(client, [(book, 1)])
    assert_refused(refused, 409, reason)
    assert count(Order) == 1
    other = quote(client, book, 1, zipCode="560001", email="someone.else@example.in", phone="9123456780")
    assert other["cashOnDelivery"] == {"available": True, "reason": None}
    response = client.put(f"/api/admin/orders/{first['_id']}/status", json={"status": "cancelled"}, headers=admin)
    assert response.status_code == 200, response.get_json()
    assert quote(client, book, 1, zipCode="560001", email=ADDRESS["email"])["cashOnDelivery"]["available"] is True


def placed_mail(order: dict) -> OutboxMail:
    db.session.expire_all()
    subject = f"Order {order['orderNumber']} placed"
    return db.session.scalars(db.select(OutboxMail).where(OutboxMail.subject == subject)).one()


def test_the_order_mail_shows_the_cod_fee(client, admin, book):
    """The placed mail lists the COD fee an admin set, so its lines add up to the total it asks for."""
    set_rules(client, admin, codFee=25)
    order = placed(client, [(book, 1)], totalPrice=1565)
    mail = placed_mail(order)
    assert "  Shipping — ₹40.00\n  Cash on delivery fee — ₹25.00\n  Total — ₹1,565.00" in mail.body
    set_rules(client, admin, codFee=0)
    order = placed(client, [(book, 1)], totalPrice=1540)
    mail = placed_mail(order)
    assert "Cash on delivery fee" not in mail.body and "  Shipping — ₹40.00\n  Total — ₹1,540.00" in mail.body
