"""The account's own data in the browser (issue 16): the cart kept on the server across logout and login, checkout
from the address book, and closing the account; at 1280 and 360 px."""
import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.mailbox import wait_for_mail
from tests.e2e.support.shop import sign_in

WIDTHS = ["page", "phone_page"]
SAVED = {"firstName": "Meera", "lastName": "Iyer", "phone": "9876543210", "address": "12 Lake View Road",
         "city": "Bangalore", "state": "Karnataka", "zipCode": "560001"}


def _login(page, user):
    """Sign in through the login screen, as a shopper would."""
    page.goto("/login")
    page.get_by_label("Email").fill(user["email"])
    page.get_by_label("Password").fill(user["password"])
    page.get_by_role("main").get_by_role("button", name="Login").click()
    for _ in range(100):
        if page.evaluate("localStorage.getItem('token')"):
            break
        page.wait_for_timeout(100)
    expect(page).not_to_have_url(re.compile(r"/login"))


def _server_cart(page, user) -> list:
    token = page.request.post("/api/auth/login", data={"email": user["email"], "password": user["password"]}
                              ).json()["token"]
    items = page.request.get("/api/cart", headers={"Authorization": f"Bearer {token}"}).json()["items"]
    return [(item["book"]["title"], item["quantity"]) for item in items]


def _wait_for_server_cart(page, user, expected) -> None:
    deadline = time.monotonic() + 10
    while _server_cart(page, user) != expected:
        assert time.monotonic() < deadline, _server_cart(page, user)
        time.sleep(0.2)


def _cart_lines(page) -> list:
    page.goto("/cart")
    expect(page.get_by_role("button", name="Proceed to Checkout")).to_be_visible()
    stored = json.loads(page.evaluate("localStorage.getItem('cart')"))
    return sorted((line["book"]["title"], line["quantity"]) for line in stored)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_cart_survives_logout_and_merges_at_the_next_login(request, shop, width):
    """A signed-in shopper's cart is saved on the server; logout empties the browser's cart only; signing in again
    adds the saved lines to what was put in the cart meanwhile (same book: quantities summed)."""
    page = request.getfixturevalue(width)
    user = shop.shopper(first_name="Kiran")
    kept, both, later = (shop.book(title=title, stock=9) for title in ("Kept Across Logins", "In Both Carts",
                                                                         "Added While Out"))
    _login(page, user)
    put_in_cart(page, kept, quantity=2)
    put_in_cart(page, both)
    _wait_for_server_cart(page, user, [("Kept Across Logins", 2), ("In Both Carts", 1)])

    page.goto("/")
    account = page.get_by_role("button", name=re.compile("Account menu for Kiran"))
    if not account.is_visible():  # a phone: the account menu is inside the header's menu
        page.get_by_role("banner").get_by_role("button", name="Menu").click()
    account.click()
    page.get_by_role("button", name="Logout").click()
    expect(page.get_by_role("button", name=re.compile("Account menu for Kiran"))).to_have_count(0)
    assert page.evaluate("localStorage.getItem('cart')") is None
    _wait_for_server_cart(page, user, [("Kept Across Logins", 2), ("In Both Carts", 1)])

    put_in_cart(page, later)
    put_in_cart(page, both, quantity=2)
    _login(page, user)
    expected = [("Added While Out", 1), ("In Both Carts", 3), ("Kept Across Logins", 2)]
    expect(page.get_by_role("banner")).to_be_visible()
    deadline = time.monotonic() + 10
    while _cart_lines(page) != expected:
        assert time.monotonic() < deadline, _cart_lines(page)
        time.sleep(0.2)
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    _wait_for_server_cart(page, user, [("Added While Out", 1), ("In Both Carts", 3), ("Kept Across Logins", 2)])


@pytest.mark.parametrize("width", WIDTHS)
def test_checkout_from_the_address_book(request, shop, width):
    """The profile saves an address (the first is the default); checkout preselects it and the order goes there;
    a new address typed at checkout is saved when asked."""
    page = request.getfixturevalue(width)
    user = shop.shopper(first_name="Meera", last_name="Iyer")
    book = shop.book(title="Address Book Atlas", stock=9)
    page.goto("/")
    sign_in(page, user)
    page.goto("/profile")
    book_section = page.get_by_role("region", name="Saved Addresses")
    book_section.get_by_role("button", name="Add Address").click()
    form = page.get_by_role("form", name="New address")
    for label, value in (("First Name", "Meera"), ("Last Name", "Iyer"), ("Phone", "98765 43210"),
                         ("Address", "12 Lake View Road"), ("City", "Bangalore"), ("PIN Code", "560001")):
        form.get_by_label(label).fill(value)
    form.get_by_role("combobox", name="State").select_option("Karnataka")
    form.get_by_label("PIN Code").fill("56000")
    form.get_by_role("button", name="Save Address").click()
    expect(form.get_by_text("PIN code must be 6 digits", exact=False)).to_be_visible()
    form.get_by_label("PIN Code").fill("560001")
    form.get_by_role("button", name="Save Address").click()
    expect(book_section.get_by_role("status")).to_contain_text("Address saved.")
    expect(book_section.get_by_role("listitem")).to_contain_text("12 Lake View Road")
    expect(book_section.get_by_text("Default", exact=True)).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    put_in_cart(page, book)
    page.goto("/checkout")
    saved = page.get_by_role("radio", name=re.compile("12 Lake View Road"))
    expect(saved).to_be_checked()
    expect(page.get_by_role("textbox", name="Address", exact=True)).to_have_value("12 Lake View Road")
    expect(page.get_by_label("PIN Code")).to_have_value("560001")
    expect(page.get_by_label("Save this address to my address book")).to_have_count(0)
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    page.get_by_role("button", name="Continue to Payment").click()
    page.get_by_role("radio", name="Cash on Delivery").check()
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert (order.address, order.city, order.zip_code, order.phone, order.email) == (
        "12 Lake View Road", "Bangalore", "560001", "9876543210", user["email"])

    if width == "page":
        put_in_cart(page, book)
        page.goto("/checkout")
        page.get_by_role("radio", name="A new address").check()
        expect(page.get_by_role("textbox", name="Address", exact=True)).to_have_value("")
        page.get_by_label("First Name").fill("Meera")
        page.get_by_label("Last Name").fill("Iyer")
        page.get_by_label("Phone").fill("9876543210")
        page.get_by_role("textbox", name="Address", exact=True).fill("7 Temple Street")
        page.get_by_label("PIN Code").fill("560001")
        city = page.get_by_role("combobox", name="City")
        city.fill("Ba")
        page.get_by_role("option", name="Bangalore").click()
        page.get_by_role("combobox", name="State").select_option("Karnataka")
        page.get_by_label("Save this address to my address book").check()
        page.get_by_role("button", name="Continue to Payment").click()
        page.get_by_role("radio", name="Cash on Delivery").check()
        page.get_by_role("button", name="Place Order").click()
        expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
        page.goto("/profile")
        expect(page.get_by_role("region", name="Saved Addresses").get_by_role("listitem")).to_have_count(2)


@pytest.mark.parametrize("width", WIDTHS)
def test_closing_the_account(request, shop, smtp, width):
    """Close My Account asks for the password (a wrong one is refused), then shows the closed screen signed out;
    the old password no longer signs in, the confirmation is mailed and the e-mail can register again."""
    page = request.getfixturevalue(width)
    user = shop.shopper(first_name="Farewell")
    page.goto("/")
    sign_in(page, user)
    page.goto("/profile")
    section = page.get_by_role("region", name="Close My Account")
    section.get_by_role("button", name="Close My Account…").click()
    form = page.get_by_role("form", name="Close my account")
    form.get_by_label("Your Password").fill("wrong-password")
    form.get_by_role("button", name="Close My Account Permanently").click()
    expect(form.get_by_text("Password is incorrect.")).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    form.get_by_label("Your Password").fill(user["password"])
    form.get_by_role("button", name="Close My Account Permanently").click()
    expect(page.get_by_role("heading", name="Account closed")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Your account is closed")
    assert page.evaluate("[localStorage.getItem('token'), localStorage.getItem('cart')]") == [None, None]
    assert_no_axe_violations(page)
    assert page.request.post("/api/auth/login", data={"email": user["email"], "password": user["password"]}
                             ).status == 401
    wait_for_mail(page, smtp, user["email"], "Your Bookstore account is closed")
    again = page.request.post("/api/auth/register", data={"firstName": "Farewell", "lastName": "Again",
                                                          "email": user["email"], "password": "a-new-start-9"})
    assert again.status == 201
