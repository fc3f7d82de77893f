"""Returns (product §7.10) in the browser, at 1280 and 360×740 px: a guest asks for a return of a delivered
cash-on-delivery order from the order e-mail's link (book, quantity, reason, a photo, a UPI ID) and sees its
status; an administrator approves it for pickup, marks it received and records the payout. Axe clean."""
import itertools
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

_serial = itertools.count(1)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e" / "returns"


def keep_screenshot(page, name: str) -> None:
    """A picture of the screen for people reviewing the flow (test-artifacts/e2e/returns/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def delivered_order(page, shop, title: str) -> tuple[dict, dict, str]:
    """A guest's cash-on-delivery order for 2 copies, moved to delivered by an administrator through the API;
    returns (order, admin, admin token)."""
    book = shop.book(title=title, price_paise=45000, stock=6)
    admin = shop.admin()
    n = next(_serial)
    address = {"firstName": "Meena", "lastName": "Iyer", "email": f"return-{n}-{id(_serial) % 10000}@example.in",
               "phone": f"98{(id(_serial) + n) % 10 ** 8:08d}", "address": "7 Residency Road", "city": "Bangalore",
               "state": "Karnataka", "zipCode": "560025"}
    placed = page.request.post("/api/orders", data={"orderItems": [{"book": book["_id"], "quantity": 2}],
                                                    "shippingAddress": address, "paymentMethod": "cod",
                                                    "totalPrice": 940})
    assert placed.status == 201, placed.text()
    order = placed.json()["order"]
    token = page.request.post("/api/auth/login", data={"email": admin["email"], "password": admin["password"]}).json()["token"]
    for status in ("processing", "shipped", "delivered"):
        moved = page.request.put(f"/api/admin/orders/{order['_id']}/status", data={"status": status},
                                 headers={"Authorization": f"Bearer {token}"})
        assert moved.status == 200, moved.text()
    return moved.json()["order"], admin, token


@pytest.mark.parametrize("screen", ["page", "phone_page"])
def test_a_guest_requests_a_return_from_the_order_link(request, screen, shop, tmp_path):
    """The delivered order's page offers Request a return; the form takes copies, reason, a photo and a UPI
    ID, refuses a malformed UPI ID with the server's message on the field, and once sent shows the return as
    Requested with its refund (less the shipping) to the masked UPI ID."""
    page = request.getfixturevalue(screen)
    order, _, _ = delivered_order(page, shop, f"Return Flow Physics {screen}")
    page.goto(order["link"])
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {order['orderNumber']}")
    returns = page.get_by_role("region", name="Returns")
    returns.get_by_role("button", name="Request a return").click()
    form = page.get_by_role("form", name="Request a return")
    form.get_by_label(re.compile("Copies of Return Flow Physics")).select_option("1")
    form.get_by_label(re.compile("Reason for Return Flow Physics")).select_option("wrong")
    form.get_by_label("What happened (optional)").fill("A chemistry book came instead.")
    photo = tmp_path / "parcel.png"
    Image.new("RGB", (320, 240), (200, 40, 40)).save(photo, format="PNG")
    form.get_by_label(re.compile("Photos")).set_input_files(str(photo))
    form.get_by_role("textbox", name="UPI ID").fill("meena at okicici")
    keep_screenshot(page, f"request-form-{screen}")
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    form.get_by_role("button", name="Send return request").click()
    expect(form.get_by_role("alert")).to_contain_text("Enter a UPI ID like name@okaxis.")
    expect(form.get_by_role("textbox", name="UPI ID")).to_have_attribute("aria-invalid", "true")
    form.get_by_role("textbox", name="UPI ID").fill("meena.iyer@okicici")
    form.get_by_role("button", name="Send return request").click()

    expect(returns.get_by_role("status")).to_contain_text("Return requested.")
    card = returns.locator(".return-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Requested")
    expect(card).to_contain_text("1 × Return Flow Physics")
    expect(card).to_contain_text("Wrong item")
    # A wrong item is the shop's mistake: no shipping is deducted (product §7.10).
    expect(card).to_contain_text("Refund ₹450.00 to me***@okicici")
    expect(card).to_contain_text("1 photo sent")
    expect(returns.get_by_role("button", name="Request a return")).to_be_visible()  # one copy is still returnable
    keep_screenshot(page, f"requested-{screen}")
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)


def test_an_admin_approves_receives_and_refunds_a_return(page, shop):
    """The admin Returns screen lists the request; its dialog approves it for pickup, marks it received with the
    copy back in stock, and records the UPI payout's reference; the shopper's details are gone afterwards."""
    order, admin, _ = delivered_order(page, shop, "Return Admin Chemistry")
    link_token = order["link"].split("token=", 1)[1]
    made = page.request.post(f"/api/orders/{order['_id']}/returns?token={link_token}", data={
        "lines": [{"book": order["orderItems"][0]["book"], "quantity": 2, "reason": "damaged"}],
        "refundTo": {"upi": "meena.iyer@okicici"}})
    assert made.status == 201, made.text()
    book_id = order["orderItems"][0]["book"]
    stock_before = shop.stock(book_id)

    page.goto("/admin-login?from=/admin/returns")
    page.get_by_label("Email").fill(admin["email"])
    page.get_by_label("Password").fill(admin["password"])
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("heading", name="Returns", level=1)).to_be_visible()
    expect(page.get_by_role("button", name=f"Open the return for order {order['orderNumber']}")).to_be_visible()
    # The count above the list is the list's own total (at least this return), not a missing field's 0.
    expect(page.locator(".adm-page-head__lead")).to_have_text(re.compile(r"^[1-9][0-9,]* returns?$"))
    page.get_by_role("button", name=f"Open the return for order {order['orderNumber']}").click()
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    expect(dialog).to_contain_text("UPI meena.iyer@okicici")
    expect(dialog).to_contain_text("₹860.00 (less ₹40.00 shipping)")
    assert_no_axe_violations(page)
    dialog.get_by_label("Pickup").check()
    dialog.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status").filter(has_text="Return approved.")).to_be_visible()
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    expect(dialog.get_by_label("Return Admin Chemistry resaleable")).to_be_checked()
    dialog.get_by_role("button", name="Mark received").click()
    expect(page.get_by_role("status").filter(has_text="Return received.")).to_be_visible()
    assert shop.stock(book_id) == stock_before + 2
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    dialog.get_by_label(re.compile("Payout reference")).fill("UPI-4401-9921")
    keep_screenshot(page, "admin-received")
    assert_no_axe_violations(page)
    dialog.get_by_role("button", name="Mark refunded").click()
    expect(page.get_by_role("status").filter(has_text="Return refunded.")).to_be_visible()
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    expect(dialog).to_contain_text("reference UPI-4401-9921")
    expect(dialog).not_to_contain_text("meena.iyer@okicici")
    expect(page.get_by_role("row", name=re.compile(order["orderNumber"]))).to_contain_text("Refunded")
    assert shop.order(order["orderNumber"]).status == "returned"


@pytest.mark.parametrize("screen", ["page", "phone_page"])
def test_a_shopper_returns_a_book_that_came_in_a_kit(request, screen, shop):
    """A delivered kit's books are offered one by one, titled with the kit: the guest returns one Chemistry
    copy, refunded at its share of the ₹600 kit (weights ₹500 : ₹300, so ₹225.00) less the ₹40 shipping. The
    administrator's Returns screen names the book and its kit, and receiving it resaleable puts it back in stock."""
    page = request.getfixturevalue(screen)
    physics = shop.book(title=f"Kit Physics {screen}", price_paise=50000, stock=5)
    chemistry = shop.book(title=f"Kit Chemistry {screen}", price_paise=30000, stock=5)
    admin = shop.admin()
    token = page.request.post("/api/auth/login", data={"email": admin["email"], "password": admin["password"]}).json()["token"]
    as_admin = {"Authorization": f"Bearer {token}"}
    kit_name = f"Return Kit {screen} {next(_serial)}"
    made = page.request.post("/api/admin/kits", headers=as_admin, data={
        "name": kit_name, "price": 600, "description": "Two books.",
        "books": [{"book": physics["_id"], "quantity": 1}, {"book": chemistry["_id"], "quantity": 1}]})
    assert made.status == 201, made.text()
    n = next(_serial)
    address = {"firstName": "Meena", "lastName": "Iyer", "email": f"kit-return-{n}-{id(_serial) % 10000}@example.in",
               "phone": f"97{(id(_serial) + n) % 10 ** 8:08d}", "address": "7 Residency Road", "city": "Bangalore",
               "state": "Karnataka", "zipCode": "560025"}
    placed = page.request.post("/api/orders", data={"orderItems": [{"kit": made.json()["kit"]["_id"], "quantity": 1}],
                                                    "shippingAddress": address, "paymentMethod": "cod", "totalPrice": 640})
    assert placed.status == 201, placed.text()
    order = placed.json()["order"]
    for status in ("processing", "shipped", "delivered"):
        moved = page.request.put(f"/api/admin/orders/{order['_id']}/status", data={"status": status}, headers=as_admin)
        assert moved.status == 200, moved.text()

    page.goto(order["link"])
    returns = page.get_by_role("region", name="Returns")
    returns.get_by_role("button", name="Request a return").click()
    form = page.get_by_role("form", name="Request a return")
    expect(form.get_by_label(f"Copies of Kit Physics {screen} (from {kit_name}) to return")).to_be_visible()
    form.get_by_label(f"Copies of Kit Chemistry {screen} (from {kit_name}) to return").select_option("1")
    form.get_by_label(f"Reason for Kit Chemistry {screen} (from {kit_name})").select_option("defective")
    form.get_by_role("textbox", name="UPI ID").fill("meena.iyer@okicici")
    keep_screenshot(page, f"kit-request-form-{screen}")
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    form.get_by_role("button", name="Send return request").click()

    expect(returns.get_by_role("status")).to_contain_text("Return requested.")
    card = returns.locator(".return-card")
    expect(card).to_contain_text(f"1 × Kit Chemistry {screen} (from {kit_name})")
    expect(card).to_contain_text("Defective")
    expect(card).to_contain_text("Refund ₹185.00 (less ₹40.00 shipping) to me***@okicici")
    keep_screenshot(page, f"kit-requested-{screen}")
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    stock_before = shop.stock(chemistry["_id"])
    page.goto("/admin-login?from=/admin/returns")
    page.get_by_label("Email").fill(admin["email"])
    page.get_by_label("Password").fill(admin["password"])
    page.get_by_role("button", name="Sign In").click()
    row = page.get_by_role("row", name=re.compile(order["orderNumber"]))
    expect(row).to_contain_text(f"1 × Kit Chemistry {screen} (from {kit_name})")
    page.get_by_role("button", name=f"Open the return for order {order['orderNumber']}").click()
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    dialog.get_by_label("Pickup").check()
    dialog.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status").filter(has_text="Return approved.")).to_be_visible()
    dialog = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    expect(dialog.get_by_label(f"Kit Chemistry {screen} (from {kit_name}) resaleable")).to_be_checked()
    assert_no_axe_violations(page)
    dialog.get_by_role("button", name="Mark received").click()
    expect(page.get_by_role("status").filter(has_text="Return received.")).to_be_visible()
    assert shop.stock(chemistry["_id"]) == stock_before + 1
