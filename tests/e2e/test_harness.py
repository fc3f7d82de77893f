"""The browser-test harness itself: server, payment settings, the Checkout test double, axe."""
import pytest
from playwright.sync_api import expect

from tests.e2e.support.axe import axe_violations


def test_server_serves_the_client_with_online_payment_configured(page):
    """The served shop runs the built client and tells checkout where the Checkout script is."""
    page.goto("/")
    expect(page.locator("#root")).not_to_be_empty()
    config = page.request.get("/api/payments/config").json()
    assert config["onlineAvailable"] is True
    assert config["checkoutUrl"].endswith("/v1/checkout.js")
    script = page.request.get(config["checkoutUrl"])
    assert script.ok and "window.Razorpay" in script.text()


def test_axe_reports_violations(page):
    """The axe helper really finds problems (an unlabelled input and an image without alt)."""
    page.set_content('<html lang="en"><title>x</title><main><img src="x.png"><input type="text"></main></html>')
    found = {violation["id"] for violation in axe_violations(page)}
    assert {"image-alt", "label"} <= found


def test_shop_data_makes_rows_the_server_sees(page, shop):
    """A book made through the shop fixture is served by the API at once."""
    book = shop.book(title="Harness Check Book", price_paise=12345, stock=3)
    reply = page.request.get(f"/api/books/{book['_id']}").json()
    assert reply["book"]["title"] == "Harness Check Book" and reply["book"]["price"] == 123.45
