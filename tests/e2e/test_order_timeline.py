"""The shopper's order timeline (product §7.8): placed, each parcel with its courier and an AWB link to the
courier's tracking page, each tracking event and the promised dates, at 1280 and 360 px, axe clean."""
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import sign_in

ADDRESS = {"firstName": "Arjun", "lastName": "Rao", "email": "arjun.timeline@example.in", "phone": "9123456789",
           "address": "7 Temple Street", "city": "Chennai", "state": "Tamil Nadu", "zipCode": "600001"}


def admin_token(page, shop) -> str:
    admin = shop.admin()
    response = page.request.post("/api/auth/login", data={"email": admin["email"], "password": admin["password"]})
    assert response.ok, response.text()
    return response.json()["token"]


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_the_order_timeline_shows_parcels_and_events(request, width, shop):
    """Two parcels (one delivered to an in-transit scan, one just shipped): the timeline lists them in time
    order with courier, AWB link and place, and the expected delivery last; nothing scrolls sideways."""
    page = request.getfixturevalue("page" if width == "desktop" else "phone_page")
    shopper = shop.shopper()
    first = shop.book(title="Timeline Physics", price_paise=30000, stock=5)
    second = shop.book(title="Timeline Chemistry", price_paise=20000, stock=5)
    page.goto("/")
    token = sign_in(page, shopper)["token"]
    body = {"orderItems": [{"book": first["_id"], "quantity": 1}, {"book": second["_id"], "quantity": 1}],
            "shippingAddress": ADDRESS, "paymentMethod": "cod", "totalPrice": 540}
    response = page.request.post("/api/orders", data=body, headers={"Authorization": f"Bearer {token}"})
    assert response.status == 201, response.text()
    order = response.json()["order"]

    admin = {"Authorization": f"Bearer {admin_token(page, shop)}"}
    # The storefront's server keeps its data between tests: AWBs unique per order.
    awb = "DLV" + order["orderNumber"][-6:]
    shipped = page.request.post(f"/api/admin/orders/{order['_id']}/shipments", headers=admin, data={
        "courier": "Delhivery", "awb": awb, "lines": [{"book": first["_id"]}]})
    assert shipped.status == 201, shipped.text()
    sid = shipped.json()["order"]["shipments"][0]["_id"]
    scan = page.request.post(f"/api/admin/orders/{order['_id']}/shipments/{sid}/events", headers=admin,
                             data={"status": "in_transit", "location": "Vijayawada Hub"})
    assert scan.status == 201, scan.text()
    rest = page.request.post(f"/api/admin/orders/{order['_id']}/shipments", headers=admin,
                             data={"courier": "India Post", "awb": f"EE{order['orderNumber'][-6:]}IN"})
    assert rest.status == 201, rest.text()

    page.goto("/orders")
    card = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=f"Order {order['orderNumber']}"))
    expect(card.locator(".order-card__head")).to_contain_text("Shipped")
    card.get_by_role("button", name=re.compile("View Details")).click()
    steps = card.locator(".order-timeline__step")
    expect(steps.locator(".order-timeline__title")).to_have_text([
        "Order placed", "Packed", "Parcel 1 shipped with Delhivery", "Parcel 1: In transit",
        "Parcel 2 shipped with India Post", "Expected delivery"])
    link = card.get_by_role("link", name=re.compile(awb))
    expect(link).to_have_attribute("href", f"https://www.delhivery.com/track/package/{awb}")
    expect(link).to_have_attribute("target", "_blank")
    expect(steps.nth(3)).to_contain_text("Vijayawada Hub")
    expect(steps.nth(2)).to_contain_text("1 × Timeline Physics")
    expect(steps.last).to_contain_text(re.compile(r"Arriving (on|between)"))
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
