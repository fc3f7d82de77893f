"""Delivery to a PIN and coupons as the shopper meets them (issue 14): the book page's PIN check, the
checkout filling city and state from the PIN, cash on delivery refused (a PIN the admin ruled out, an order
over the cap) and a coupon applied and removed, at desktop and phone sizes."""
import re
import secrets

from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations as _assert_no_axe_violations
from tests.e2e.support.checkout import ADDRESS, put_in_cart
from tests.e2e.support.axe import AXE_SCRIPT
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import admin_headers

SETTINGS = "/api/admin/shop-settings"


def assert_no_axe_violations(page) -> None:
    """support.axe's check, with axe loaded through the DevTools protocol first: a Content-Security-Policy
    without 'unsafe-inline' refuses the inline <script> that add_script_tag would insert."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate("(source) => { (0, eval)(source); }", AXE_SCRIPT.read_text())
    _assert_no_axe_violations(page)


def open_checkout(page) -> None:
    page.goto("/checkout")
    expect(page.get_by_role("heading", level=1, name="Checkout")).to_be_visible()


def fill_contact(page) -> None:
    """Everything but the PIN, city and state (the PIN fills those)."""
    for label in ("First Name", "Last Name", "Email", "Phone", "Address"):
        page.get_by_label(label, exact=False).first.fill(ADDRESS[label])


def summary(page):
    return page.get_by_role("region", name="Order Summary")


def test_book_page_checks_delivery_to_a_pin_and_checkout_remembers_it(shopper_page, shop):
    """'Deliver to' answers with the dates and cash on delivery; the PIN is kept and prefilled at checkout,
    which fills city and state from it."""
    page = shopper_page
    book = shop.book(title="Deliverable Tales", price_paise=30000, stock=5)
    page.goto(f"/book/{book['_id']}")
    pin = page.get_by_label("Deliver to")
    pin.fill("560 001")
    page.get_by_role("button", name="Check", exact=True).click()
    answer = page.get_by_role("status").filter(has_text="Bengaluru")
    expect(answer).to_contain_text(re.compile(r"Delivery to Bengaluru between \w{3} \d{1,2} \w{3}"))
    expect(answer).to_contain_text("Cash on delivery available up to ₹5,000")
    assert page.evaluate("localStorage.getItem('deliveryPin')") == "560001"
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    pin.fill("999999")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.get_by_text("We can't confirm delivery to this PIN.")).to_be_visible()

    page.reload()  # remembered: the last PIN the shop delivers to
    expect(page.get_by_label("Deliver to")).to_have_value("560001")

    put_in_cart(page, book)
    open_checkout(page)
    expect(page.get_by_label("PIN Code")).to_have_value("560001")
    expect(page.get_by_role("combobox", name="City")).to_have_value("Bengaluru")
    expect(page.get_by_role("combobox", name="State")).to_have_value("Karnataka")
    expect(page.get_by_text(re.compile(r"Delivered (by|between) \w{3}, \d{1,2} \w{3}"))).to_be_visible()


def test_checkout_fills_city_and_state_from_the_pin_and_charges_the_quote(shopper_page, shop):
    """'110 001' fills Delhi (still editable), shows the dates; the order is placed at the server's total."""
    page = shopper_page
    book = shop.book(title="Capital Reading", price_paise=42000, stock=5)
    put_in_cart(page, book)
    open_checkout(page)
    fill_contact(page)
    page.get_by_label("PIN Code").fill("110 001")
    expect(page.get_by_label("PIN Code")).to_have_value("110001")
    city = page.get_by_role("combobox", name="City")
    expect(city).to_have_value("Delhi")
    expect(page.get_by_role("combobox", name="State")).to_have_value("Delhi")
    expect(page.get_by_role("status").filter(has_text="Delivery to Delhi")).to_contain_text(
        re.compile(r"Delivered (by|between) \w{3}, \d{1,2} \w{3}"))
    city.fill("New Delhi")  # the shopper's word wins
    expect(city).to_have_value("New Delhi")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.get_by_role("button", name="Continue to Payment").click()
    cod = page.get_by_role("radio", name="Cash on Delivery")
    expect(cod).to_be_enabled()
    cod.check()
    expect(summary(page)).to_contain_text("₹460.00")  # 420 + 40 shipping, from the quote
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    number = page.locator("dt:text-is('Order Number') + dd").inner_text()
    order = shop.order(number)
    assert (order.city, order.state, order.zip_code) == ("New Delhi", "Delhi", "110001")
    assert order.total_paise == 46000 and order.payment_method == "cod"


def test_cod_is_refused_for_a_pin_the_admin_turned_off(shopper_page, shop):
    """The admin turns COD off for a PIN: checkout says why, and online payment is chosen instead."""
    page = shopper_page
    pin = "400001"
    headers = admin_headers(page, shop)
    response = page.request.put(SETTINGS, data={"codPins": {pin: False}}, headers=headers)
    assert response.ok, response.text()
    try:
        book = shop.book(title="Mumbai Monsoon", price_paise=35000, stock=5)
        put_in_cart(page, book)
        open_checkout(page)
        fill_contact(page)
        page.get_by_label("PIN Code").fill(pin)
        expect(page.get_by_role("combobox", name="City")).not_to_have_value("")
        expect(page.get_by_role("combobox", name="State")).to_have_value("Maharashtra")
        page.get_by_role("button", name="Continue to Payment").click()
        cod = page.get_by_role("radio", name="Cash on Delivery")
        expect(cod).to_be_disabled()
        expect(page.get_by_text("Not available: Cash on delivery is not available for this PIN code.")).to_be_visible()
        expect(page.get_by_role("radio", name=re.compile(r"^Pay Online"))).to_be_checked()
        assert_no_axe_violations(page)
        assert_no_horizontal_scroll(page)

        page.get_by_role("button", name="Back").click()  # another PIN still takes cash
        page.get_by_label("PIN Code").fill("560001")
        page.get_by_role("combobox", name="City").fill("Bengaluru")
        page.get_by_role("combobox", name="State").select_option("Karnataka")
        page.get_by_role("button", name="Continue to Payment").click()
        expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_enabled()
    finally:
        assert page.request.put(SETTINGS, data={"codPins": {}}, headers=headers).ok


def test_cod_is_refused_over_the_cap(shopper_page, shop):
    """An order over ₹5,000 cannot be paid in cash: the reason names the cap."""
    page = shopper_page
    book = shop.book(title="Collector's Atlas", price_paise=260000, stock=5)
    put_in_cart(page, book, quantity=2)
    open_checkout(page)
    fill_contact(page)
    page.get_by_label("PIN Code").fill("560001")
    expect(page.get_by_role("combobox", name="City")).to_have_value("Bengaluru")
    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_disabled()
    expect(page.get_by_text(re.compile(r"Not available: Cash on delivery is available for orders up to ₹5,000"))
           ).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile(r"^Pay Online"))).to_be_checked()
    expect(summary(page)).to_contain_text("₹5,240.00")
    assert_no_axe_violations(page)


def test_a_coupon_is_applied_removed_and_ordered_with(shopper_page, shop):
    """A wrong code says why under the field; EXAM10 takes 10% off in its own line; Remove drops it; the
    order is placed with the coupon at the discounted total."""
    page = shopper_page
    code = f"EXAM{secrets.token_hex(2).upper()}"  # its own code, since both viewports make one
    response = page.request.post("/api/admin/coupons", data={"code": code, "kind": "percent", "value": 10},
                                 headers=admin_headers(page, shop))
    assert response.status == 201, response.text()
    book = shop.book(title="Discounted Drama", price_paise=50000, stock=5)
    put_in_cart(page, book)
    open_checkout(page)
    box = summary(page)
    coupon = box.get_by_label("Coupon code")

    coupon.fill("NOSUCHCODE")
    box.get_by_role("button", name="Apply").click()
    expect(box.locator(".coupon-field .field__error")).not_to_be_empty()
    expect(coupon).to_have_attribute("aria-invalid", "true")
    expect(box).to_contain_text("₹540.00")
    assert_no_axe_violations(page)

    coupon.fill(code.lower())
    box.get_by_role("button", name="Apply").click()
    expect(box.get_by_text(f"Coupon {code}", exact=True)).to_be_visible()
    expect(box).to_contain_text("−₹50.00")
    expect(box.locator(".order-summary__total")).to_contain_text("₹490.00")
    assert_no_axe_violations(page)

    box.get_by_role("button", name=f"Remove coupon {code}").click()
    expect(box.get_by_text(f"Coupon {code}", exact=True)).to_have_count(0)
    expect(box.locator(".order-summary__total")).to_contain_text("₹540.00")

    box.get_by_label("Coupon code").fill(code)
    box.get_by_role("button", name="Apply").click()
    expect(box.locator(".order-summary__total")).to_contain_text("₹490.00")
    fill_contact(page)
    page.get_by_label("PIN Code").fill("560001")
    expect(page.get_by_role("combobox", name="City")).to_have_value("Bengaluru")
    page.get_by_role("button", name="Continue to Payment").click()
    page.get_by_role("radio", name="Cash on Delivery").check()
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert (order.coupon_code, order.discount_paise, order.total_paise) == (code, 5000, 49000)
