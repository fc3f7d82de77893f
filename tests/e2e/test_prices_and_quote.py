"""What the shopper pays, as the server says it (issues 13 and 14): list prices struck through with the % off
on a card and the book page, the cart priced by the server's quote with a coupon applied there and still
applied at checkout, free shipping from the admin's threshold, the shop's states in the shipping form, and
the promised delivery dates on the success page; at 1280 and 360 px, axe clean."""
import re
import secrets

from playwright.sync_api import expect

from tests.e2e.support.checkout import put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.test_delivery_and_coupons import admin_headers, assert_no_axe_violations, fill_contact

SETTINGS = "/api/admin/shop-settings"


def summary(page):
    return page.get_by_role("region", name="Order Summary")


def test_a_discount_shows_the_list_price_struck_through_and_the_percent_off(shopper_page, shop):
    """A card and the book page show the offer price, the list price in <s>, '20% off', and screen readers
    hear 'was ₹500.00, 20% off'; the book page adds 'You save ₹100.00' and the shop's shipping fee on its own
    line."""
    page = shopper_page
    word = f"Markdown{secrets.token_hex(3)}"
    book = shop.book(title=f"{word} Algebra", price_paise=50000, discounted_price_paise=40000, stock=5)
    page.goto(f"/books?search={word}")
    card = page.locator("article.book-card").filter(has_text=f"{word} Algebra")
    expect(card).to_have_count(1)
    price = card.locator(".price")
    expect(price.locator(".price__now")).to_have_text("₹400.00")
    expect(price.locator("s.price__was")).to_have_text("₹500.00")
    expect(price.locator(".price__off")).to_have_text("20% off")
    expect(price.locator(".sr-only")).to_have_text(", was ₹500.00, 20% off")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.goto(f"/book/{book['_id']}")
    buy = page.get_by_role("main").locator(".book-details__buy")
    expect(buy.locator("s.price__was")).to_have_text("₹500.00")
    expect(buy.locator(".price__off")).to_have_text("20% off")
    expect(buy).to_contain_text("You save ₹100.00")
    expect(buy.locator(".book-details__shipping")).to_have_text("+ ₹40.00 shipping per order")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)


def test_the_cart_prices_with_the_quote_and_its_coupon_carries_to_checkout(shopper_page, shop):
    """The cart shows the server's shipping and total, the dates to the remembered PIN, and a coupon applied
    there; checkout still has it applied, offers exactly the server's states, and the order is placed at the
    discounted total; the success page says when it arrives."""
    page = shopper_page
    code = f"CART{secrets.token_hex(2).upper()}"
    response = page.request.post("/api/admin/coupons", data={"code": code, "kind": "percent", "value": 10},
                                 headers=admin_headers(page, shop))
    assert response.status == 201, response.text()
    book = shop.book(title="Quoted Quantum", price_paise=50000, discounted_price_paise=45000, stock=5)
    put_in_cart(page, book)
    page.evaluate("localStorage.setItem('deliveryPin', '560001')")

    page.goto("/cart")
    box = summary(page)
    line = page.locator(".cart-line").filter(has_text="Quoted Quantum")
    expect(line.locator("s.price__was")).to_have_text("₹500.00")
    expect(line.locator(".price__off")).to_have_text("10% off")
    expect(box.locator(".order-summary__figures")).to_contain_text("Shipping₹40.00")
    expect(box.locator(".order-summary__total")).to_contain_text("₹490.00")  # 450 + 40, the quote's
    expect(box.get_by_role("status").filter(has_text="Delivery to Bengaluru (560001)")).to_contain_text(
        re.compile(r"Delivered (by|between) \w{3}, \d{1,2} \w{3}"))
    assert_no_axe_violations(page)

    box.get_by_label("Coupon code").fill(code.lower())
    box.get_by_role("button", name="Apply").click()
    expect(box.get_by_text(f"Coupon {code}", exact=True)).to_be_visible()
    expect(box).to_contain_text("−₹45.00")
    expect(box.locator(".order-summary__total")).to_contain_text("₹445.00")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    box.get_by_role("button", name="Proceed to Checkout").click()
    expect(page.get_by_role("heading", level=1, name="Checkout")).to_be_visible()
    box = summary(page)
    expect(box.get_by_role("button", name=f"Remove coupon {code}")).to_be_visible()
    expect(box.locator(".order-summary__total")).to_contain_text("₹445.00")
    expect(box.locator(".order-summary__lines s.price__was")).to_have_text("₹500.00")
    offered = page.get_by_role("combobox", name="State").locator("option").all_inner_texts()[1:]
    assert offered == page.request.get("/api/shop").json()["states"]

    fill_contact(page)
    page.get_by_label("PIN Code").fill("560001")
    expect(page.get_by_role("combobox", name="City")).to_have_value("Bengaluru")
    page.get_by_role("button", name="Continue to Payment").click()
    page.get_by_role("radio", name="Cash on Delivery").check()
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    promise = page.locator(".order-success__head .order-promise")
    expect(promise).to_have_text(re.compile(r"^Arriving (on|between) \w{3}, \d{1,2} \w{3}"))
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert (order.coupon_code, order.discount_paise, order.total_paise) == (code, 4500, 44500)
    assert order.promised_from is not None
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    assert page.evaluate("sessionStorage.getItem('couponCode')") is None  # used: not offered to the next cart


def test_free_shipping_shows_once_the_admins_threshold_is_met(shopper_page, shop):
    """With a ₹300 threshold set through the admin API, the book page says shipping is free from ₹300 and the
    cart's quote charges ₹0 shipping, shown as free."""
    page = shopper_page
    headers = admin_headers(page, shop)
    assert page.request.put(SETTINGS, data={"freeShippingThreshold": 300}, headers=headers).ok
    try:
        book = shop.book(title="Threshold Thermodynamics", price_paise=35000, stock=5)
        page.goto(f"/book/{book['_id']}")
        expect(page.get_by_role("main").locator(".book-details__shipping")).to_have_text(
            "+ ₹40.00 shipping per order (free on orders of ₹300.00 or more)")
        put_in_cart(page, book)
        page.goto("/cart")
        box = summary(page)
        expect(box.locator(".order-summary__figures")).to_contain_text("Shipping₹0.00 (free)")
        expect(box.locator(".order-summary__total")).to_contain_text("₹350.00")
        assert_no_axe_violations(page)
        assert_no_horizontal_scroll(page)
    finally:
        assert page.request.put(SETTINGS, data={"freeShippingThreshold": None}, headers=headers).ok


def test_a_zones_own_shipping_fee_shows_before_and_after_the_pin(page, shop):
    """With ₹75 for the rest of India (set through the admin API), the book page gives the range by PIN, the
    shipping page names the area and its fee, and the cart's quote charges ₹75 to a Pune PIN but the flat ₹40
    to Bengaluru."""
    headers = admin_headers(page, shop)
    rest_of_india = {"minDays": 4, "maxDays": 7, "cod": True}
    assert page.request.put(SETTINGS, data={"zones": {"restOfIndia": {**rest_of_india, "shippingFee": 75}}},
                            headers=headers).ok
    try:
        book = shop.book(title="Zonal Zoology", price_paise=35000, stock=5)
        page.goto(f"/book/{book['_id']}")
        expect(page.get_by_role("main").locator(".book-details__shipping")).to_have_text(
            "+ ₹40.00–₹75.00 shipping per order, by PIN")
        page.goto("/shipping")
        expect(page.get_by_role("main")).to_contain_text("An order costs ₹40 to ship")
        expect(page.get_by_role("main").get_by_role("listitem").filter(has_text="the rest of India")).to_have_text(
            "the rest of India: ₹75")
        assert_no_axe_violations(page)

        put_in_cart(page, book)
        page.evaluate("localStorage.setItem('deliveryPin', '411001')")
        page.goto("/cart")
        box = summary(page)
        expect(box.locator(".order-summary__figures")).to_contain_text("Shipping₹75.00")
        expect(box.locator(".order-summary__total")).to_contain_text("₹425.00")
        page.evaluate("localStorage.setItem('deliveryPin', '560001')")
        page.reload()
        expect(summary(page).locator(".order-summary__figures")).to_contain_text("Shipping₹40.00")
        expect(summary(page).locator(".order-summary__total")).to_contain_text("₹390.00")
        assert_no_axe_violations(page)
    finally:
        assert page.request.put(SETTINGS, data={"zones": {"restOfIndia": rest_of_india}}, headers=headers).ok
