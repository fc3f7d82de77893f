"""The shopper's Cancel button follows the server's rules (product §7.4): once an e-book of the order was
downloaded the cancel is refused, so the order page no longer offers it, at once and after a reload."""
import itertools
import re

from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations

_serial = itertools.count(1)
ADDRESS = {"firstName": "Meera", "lastName": "Iyer", "phone": "9123456780", "address": "12 Lake Road",
           "city": "Chennai", "state": "Tamil Nadu", "zipCode": "600001"}


def paid_mixed_order(page, shop, razorpay) -> dict:
    """A guest's paid online order of a printed book and an e-book (pending: nothing shipped yet)."""
    serial = next(_serial)
    printed = shop.book(title=f"Cancel Rule Physics {serial}", price_paise=30000, stock=5)
    ebook = shop.digital_book(title=f"Cancel Rule Notes {serial}", price_paise=19900)
    body = {"orderItems": [{"book": printed["_id"], "quantity": 1}, {"book": ebook["_id"], "quantity": 1}],
            "shippingAddress": {**ADDRESS, "email": f"cancel-rule-{serial}-{id(_serial) % 10000}@example.in"},
            "paymentMethod": "online", "totalPrice": 539}
    placed = page.request.post("/api/orders", data=body)
    assert placed.status == 201, placed.text()
    order = placed.json()["order"]
    created = page.request.post("/api/payments/create-order", data={"orderId": order["_id"]})
    assert created.ok, created.text()
    verified = page.request.post("/api/payments/verify", data=razorpay.pay(created.json()["order"]["id"]))
    assert verified.ok, verified.text()
    return verified.json()["order"]


def test_the_cancel_button_goes_once_an_e_book_was_downloaded(page, shop, razorpay):
    page.goto("/")
    order = paid_mixed_order(page, shop, razorpay)
    page.goto(order["link"])
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {order['orderNumber']}")
    cancel = page.get_by_role("button", name="Cancel Order")
    expect(cancel).to_be_visible()

    with page.expect_download():
        page.get_by_role("button", name=re.compile("Download Cancel Rule Notes")).click()
    expect(page.get_by_text("4 downloads left")).to_be_visible()
    expect(cancel).to_have_count(0)
    assert_no_axe_violations(page)

    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {order['orderNumber']}")
    expect(page.get_by_text("4 downloads left")).to_be_visible()
    expect(cancel).to_have_count(0)
    assert shop.order(order["orderNumber"]).status == "pending"
