"""Order e-mails and their links (issue 17): every order mail links to the order with a signed, expiring token
that opens it without signing in (read, cancel within the hour, bill); mails have a plain-text and an HTML part
with the shop's name and address in the footer, and say only what happened."""
import re
from datetime import datetime, timedelta, timezone

import pytest

from bookstore.services import order_links
from tests.factories import ADDRESS
from tests.helpers import assert_refused, order_row, set_order, stock_of

FOOTER = ("Bookstore", "2nd Floor, MG Road, Bengaluru, Karnataka 560001")


@pytest.fixture
def app(shop_app):
    """client, factories and auth of this module use the shop app (fake Razorpay, SMTP sink)."""
    return shop_app


def token_of(order: dict) -> str:
    return order["link"].split("token=", 1)[1]


def later(days: float):
    """A clock standing `days` from now."""
    moment = datetime.now(timezone.utc) + timedelta(days=days)
    return lambda: moment


def test_the_link_opens_the_order_without_signing_in(app, client, factories):
    """GET /api/orders/{id}?token= answers the order to anyone holding the link, even with a stale sign-in in
    the browser; without it a guest is asked to sign in, a forged or another order's token is 404, and after
    ORDER_LINK_DAYS the link is 403 with a sentence saying what to do."""
    order = factories.order(client=client)
    other = factories.order(client=client)
    path = f"/api/orders/{order['_id']}"
    assert re.fullmatch(rf"/orders/{order['_id']}\?token=[\w.\-]+", order["link"])

    reply = client.get(f"{path}?token={token_of(order)}", headers={"Authorization": "Bearer stale"})
    assert reply.status_code == 200 and reply.get_json()["order"]["orderNumber"] == order["orderNumber"]
    assert_refused(client.get(path), 401)
    assert_refused(client.get(f"{path}?token={token_of(other)}"), 404, order_links.INVALID)
    forged = token_of(order).rsplit(".", 1)[0] + ".AAAA"
    assert_refused(client.get(f"{path}?token={forged}"), 404, order_links.INVALID)
    stretched = token_of(order).replace(".", ".9", 1)  # a later expiry, signed for the old one
    assert_refused(client.get(f"{path}?token={stretched}"), 404, order_links.INVALID)
    assert_refused(client.get(f"{path}?token={'x' * 201}"), 422)

    app.config["CLOCK"] = later(89)
    assert client.get(f"{path}?token={token_of(order)}").status_code == 200
    app.config["CLOCK"] = later(91)
    assert_refused(client.get(f"{path}?token={token_of(order)}"), 403, order_links.EXPIRED)


def test_a_guest_cancels_with_the_link_within_the_hour(app, client, factories):
    """The link's holder cancels a pending order within the hour: stock comes back once and the history says
    the shopper did it; a second cancel is 409. An expired link or an order over an hour old changes nothing."""
    book = factories.book(stock=5)
    order = factories.order([(book, 2)], client=client)
    old = factories.order([(book, 1)], client=client)
    assert stock_of(book) == (2, 3)

    response = client.post(f"/api/orders/{order['_id']}/cancel?token={token_of(order)}")

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["order"]["status"] == "cancelled"
    assert order_row(order["_id"]).status == "cancelled" and stock_of(book) == (4, 1)
    assert [(c.status, c.by) for c in order_row(order["_id"]).history] == [("pending", "customer"),
                                                                           ("cancelled", "customer")]
    assert_refused(client.post(f"/api/orders/{order['_id']}/cancel?token={token_of(order)}"), 409)
    assert stock_of(book) == (4, 1)

    set_order(old["_id"], created_at=datetime.now(timezone.utc) - timedelta(hours=2))
    assert_refused(client.post(f"/api/orders/{old['_id']}/cancel?token={token_of(old)}"), 409)
    app.config["CLOCK"] = later(91)
    assert_refused(client.post(f"/api/orders/{old['_id']}/cancel?token={token_of(old)}"), 403, order_links.EXPIRED)
    assert_refused(client.post(f"/api/orders/{old['_id']}/cancel"), 401)
    assert order_row(old["_id"]).status == "pending" and stock_of(book) == (4, 1)
    assert len(order_row(old["_id"]).history) == 1


def test_order_mails_have_both_parts_the_footer_and_the_order_link(client, factories, smtp_sink):
    """The placed mail is plain text and HTML, each with the shop's name and address at the foot and a link to
    this order with its token (not to /orders, which a guest cannot open); the link's token opens the order."""
    order = factories.order(client=client)

    message = smtp_sink.messages[-1]
    assert message.get_content_type() == "multipart/alternative"
    text = message.get_body(("plain",)).get_content()
    markup = message.get_body(("html",)).get_content()
    for footer in FOOTER:
        assert footer in text and footer in markup
    link = re.search(rf"https://books\.example\.in/orders/{order['_id']}\?token=(\S+)", text)
    assert link, text
    assert "https://books.example.in/orders\n" not in text
    assert f'<a href="https://books.example.in/orders/{order["_id"]}?token=' in markup
    assert "Delivering to" in text and "Arriving" in text  # the parcel is on its way: where and when
    assert client.get(f"/api/orders/{order['_id']}?token={link.group(1)}").status_code == 200


def test_the_footer_follows_the_seller_settings(client, factories, smtp_sink, auth):
    """An administrator's seller name and address are what every mail's footer shows."""
    admin = auth.admin()
    client.put("/api/admin/shop-settings", headers=admin,
               json={"sellerName": "Pustak Ghar", "sellerAddress": "12 Residency Road, Bengaluru 560025"})
    factories.order(client=client)
    text = smtp_sink.body(-1).replace("\r\n", "\n")
    assert text.rstrip().endswith("https://books.example.in/")
    assert "Pustak Ghar\n12 Residency Road, Bengaluru 560025" in text


def test_cancelled_and_delivered_mails_say_what_happened(client, factories, smtp_sink, auth):
    """The cancelled and delivered mails promise no delivery and no address; the delivered one carries the
    bill of supply as a PDF and says so."""
    admin = auth.admin()
    cancelled = factories.order(client=client)
    client.post(f"/api/orders/{cancelled['_id']}/cancel?token={token_of(cancelled)}")
    delivered = factories.order(client=client)
    for status in ("processing", "shipped", "delivered"):
        assert client.put(f"/api/admin/orders/{delivered['_id']}/status", json={"status": status},
                          headers=admin).status_code == 200

    by_subject = {message["Subject"]: message for message in smtp_sink.messages}
    gone = by_subject[f"Order {cancelled['orderNumber']} is now cancelled"]
    done = by_subject[f"Order {delivered['orderNumber']} is now delivered"]
    shipped = by_subject[f"Order {delivered['orderNumber']} is now shipped"]
    for message in (gone, done):
        text = message.get_body(("plain",)).get_content()
        assert "Delivering to" not in text and ADDRESS["address"] not in text and "Arriving" not in text
    assert "Delivering to" in shipped.get_body(("plain",)).get_content()
    number = order_row(delivered["_id"]).bill_number
    assert f"Your bill of supply {number} is attached." in done.get_body(("plain",)).get_content()
    [bill] = list(done.iter_attachments())
    assert bill.get_content_type() == "application/pdf" and bill.get_filename() == f"bill-{number.replace('/', '-')}.pdf"
    assert bill.get_content().startswith(b"%PDF-")
    assert not list(gone.iter_attachments()) and not list(shipped.iter_attachments())


def test_the_password_changed_mail_links_to_a_reset(client, factories, smtp_sink, auth):
    """"If this was not you": the notice links to the reset form with the address filled in, not to sign-in."""
    factories.user(email="asha@example.in", password="secret-pass")
    headers = auth.login("asha@example.in", "secret-pass")
    client.put("/api/auth/password", headers=headers, json={"currentPassword": "secret-pass", "newPassword": "n3w-pass"})

    text = smtp_sink.body(-1)
    assert "https://books.example.in/forgot-password?email=asha%40example.in" in text
    assert "https://books.example.in/login" not in text
    assert smtp_sink.messages[-1].get_body(("html",)) is not None
