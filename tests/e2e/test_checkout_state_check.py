"""The shipping state and the PIN at checkout (issue 14): a state other than the PIN's is named and needs
the shopper's confirmation; cash on delivery refused for a contact with too many open COD orders says so;
a signed-in shopper's PIN is kept on the account. At desktop and phone sizes, axe clean."""
import re
import secrets

from playwright.sync_api import expect
from sqlalchemy import delete

from bookstore.extensions import db
from bookstore.models import ShopSetting

from tests.e2e.support.checkout import ADDRESS, put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import admin_headers, sign_in
from tests.e2e.test_delivery_and_coupons import assert_no_axe_violations, fill_contact, open_checkout

SETTINGS = "/api/admin/shop-settings"
MISMATCH = "PIN code 799001 is in Tripura, not Telangana."


def forget_setting(shop, key: str) -> None:
    """Remove an administrator's saved value, so the deployment's default is in force again."""
    def forget():
        db.session.execute(delete(ShopSetting).where(ShopSetting.key == key))
        db.session.commit()
    shop._run(forget)


def test_a_state_other_than_the_pins_needs_the_shoppers_confirmation(shopper_page, shop):
    """Agartala's PIN fills Tripura; choosing Telangana names the mismatch and stops the step until the
    shopper confirms; the order is then placed with the state they chose."""
    page = shopper_page
    book = shop.book(title="Tripura Tales", price_paise=30000, stock=5)
    put_in_cart(page, book)
    open_checkout(page)
    fill_contact(page)
    page.get_by_label("PIN Code").fill("799001")
    expect(page.get_by_role("combobox", name="City")).to_have_value("Agartala")
    state = page.get_by_role("combobox", name=re.compile(r"^State"))
    expect(state).to_have_value("Tripura")
    confirm = page.get_by_role("checkbox", name="My address is right: deliver to Telangana.")
    expect(confirm).to_have_count(0)

    state.select_option("Telangana")
    check = page.get_by_role("group", name=re.compile(re.escape(MISMATCH)))
    expect(check).to_be_visible()
    expect(confirm).not_to_be_checked()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("alert").filter(has_text=MISMATCH)).to_be_visible()
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_have_count(0)  # still on the shipping step
    assert_no_axe_violations(page)

    state.select_option("Tripura")  # the PIN's own state: nothing to confirm
    expect(check).to_have_count(0)
    state.select_option("Telangana")
    confirm.check()
    page.get_by_role("button", name="Continue to Payment").click()
    page.get_by_role("radio", name="Cash on Delivery").check()
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert (order.city, order.state, order.zip_code) == ("Agartala", "Telangana", "799001")


def test_cod_is_refused_for_a_contact_with_too_many_open_cod_orders(shopper_page, shop):
    """With the contact's open COD orders at the shop's cap, checkout offers no cash on delivery and says why."""
    page = shopper_page
    email = f"cod-cap-{secrets.token_hex(3)}@example.in"
    phone = f"9{secrets.randbelow(10 ** 9):09d}"  # a contact of its own: the shop's data outlives one test
    headers = admin_headers(page, shop)
    assert page.request.put(SETTINGS, data={"openCodOrdersPerContact": 1}, headers=headers).ok
    try:
        book = shop.book(title="Cash Counted", price_paise=30000, stock=5)
        first = page.request.post("/api/orders", data={
            "orderItems": [{"book": book["_id"], "quantity": 1}], "paymentMethod": "cod", "totalPrice": 340,
            "shippingAddress": {"firstName": "Meera", "lastName": "Iyer", "email": email, "phone": phone,
                                "address": "12 Lake View Road", "city": "Bengaluru", "state": "Karnataka",
                                "zipCode": "560001"}})
        assert first.status == 201, first.text()
        put_in_cart(page, book)
        open_checkout(page)
        fill_contact(page)
        page.get_by_label("Email", exact=False).first.fill(email)
        page.get_by_label("Phone", exact=False).first.fill(phone)
        page.get_by_label("PIN Code").fill("560001")
        expect(page.get_by_role("combobox", name="City")).to_have_value("Bengaluru")
        page.get_by_role("button", name="Continue to Payment").click()
        expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_disabled()
        expect(page.get_by_text("Not available: There are already 1 cash-on-delivery orders on their way to this "
                                "phone number or e-mail address.", exact=False)).to_be_visible()
        assert_no_axe_violations(page)
        assert_no_horizontal_scroll(page)
    finally:
        # Back to the served shop's own cap (tests/server.py sets one above what an admin may save).
        forget_setting(shop, "open_cod_orders_per_contact")


def test_a_signed_in_shoppers_pin_is_kept_on_the_account(shopper_page, shop):
    """A PIN checked on a book page while signed in is stored on the account, and the account's PIN comes
    before the one this browser remembers."""
    page = shopper_page
    shopper = shop.shopper()
    book = shop.book(title="Portable PINs", price_paise=30000, stock=5)
    page.goto("/")
    sign_in(page, shopper)
    page.goto(f"/book/{book['_id']}")
    page.get_by_label("Deliver to").fill("799001")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Agartala")).to_be_visible()
    for _ in range(50):
        if shop.user_row(shopper["email"]).delivery_pin == "799001":
            break
        page.wait_for_timeout(100)
    assert shop.user_row(shopper["email"]).delivery_pin == "799001"

    page.evaluate("localStorage.setItem('deliveryPin', '560001')")  # this browser remembers another PIN
    page.reload()
    expect(page.get_by_label("Deliver to")).to_have_value("799001")
    assert_no_axe_violations(page)
    put_in_cart(page, book)
    open_checkout(page)
    expect(page.get_by_label("PIN Code")).to_have_value("799001")
    expect(page.get_by_role("combobox", name="State")).to_have_value("Tripura")
