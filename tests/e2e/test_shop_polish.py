"""The shop's small defects of issue 16, at 1280 px and 360 px: counted words read right, the cart's item
counts agree, /books price filters are checked as typed, the city field knows other spellings, cash on
delivery is chosen when it is the only way to pay, badges stay off the cover's text, category icons are
SVG (no emoji), home has one newsletter box, and the footer's contact details come from the shop settings."""
import re
import secrets

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import ADDRESS, fill_shipping, put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import admin_headers

SETTINGS = "/api/admin/shop-settings"
# Pictographs and the variation selector that turns a symbol into an emoji.
EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")


def test_one_copy_and_one_book_read_in_the_singular(shopper_page, shop):
    """The last copy already in the cart is "the only copy", and a search with one match shows "1 book"."""
    page = shopper_page
    title = f"Lone Copy {secrets.token_hex(3)}"
    book = shop.book(title=title, stock=1)
    put_in_cart(page, book)
    page.get_by_role("main").get_by_role("button", name="Add to Cart").first.click()
    expect(page.get_by_text("The only copy is already in your cart.")).to_be_visible()
    expect(page.get_by_text("All 1 copies")).to_have_count(0)
    page.goto(f"/books?search={title.replace(' ', '+')}")
    expect(page.get_by_text(re.compile(r"^Showing 1 of 1 book\b"))).to_be_visible()
    assert_no_axe_violations(page)


def test_the_cart_counts_copies_the_same_everywhere(shopper_page, shop):
    """Three copies of one book and one of another are 4 items on the cart page, in the order summary and in
    the header's cart link."""
    page = shopper_page
    put_in_cart(page, shop.book(title="Counted Thrice", stock=9), quantity=3)
    put_in_cart(page, shop.book(title="Counted Once", stock=9))
    page.goto("/cart")
    expect(page.get_by_text("4 items (2 books) in your cart")).to_be_visible()
    summary = page.get_by_role("region", name="Order Summary")
    expect(summary.get_by_text("Items (4)")).to_be_visible()
    expect(page.get_by_role("link", name="Cart, 4 items")).to_have_count(1)
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)


def test_price_filters_are_checked_as_typed(shopper_page):
    """A minus sign typed into a price is taken out with a message; a minimum above the maximum says so and
    is not applied; a sensible range is applied to the address."""
    page = shopper_page
    page.goto("/books")
    if page.viewport_size["width"] < 640:  # on phones the filters are in a sheet
        page.get_by_role("button", name=re.compile(r"^Filters")).click()
    low, high = page.get_by_label("Min price (₹)"), page.get_by_label("Max price (₹)")
    low.press_sequentially("-50")
    expect(low).to_have_value("50")
    expect(page.get_by_role("alert")).to_have_text("Prices cannot be negative.")
    high.fill("20")
    expect(page.get_by_role("alert")).to_have_text("The min price (₹50) must not be more than the max price (₹20).")
    expect(low).to_have_attribute("aria-invalid", "true")
    assert_no_axe_violations(page)
    page.wait_for_timeout(900)  # longer than the filters' pause: the range the wrong way round was not applied
    assert "maxPrice" not in page.url
    high.fill("900")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"minPrice=50&maxPrice=900|maxPrice=900&minPrice=50"))
    assert_no_horizontal_scroll(page)


def test_city_suggestions_know_other_spellings(shopper_page, shop):
    """"Beng" suggests Bengaluru (Bangalore) and "Bomb" Mumbai (Bombay); a choice fills the official name."""
    page = shopper_page
    put_in_cart(page, shop.book(title="City Names", stock=5))
    page.goto("/checkout")
    city = page.get_by_role("combobox", name="City")
    city.fill("Bomb")
    expect(page.get_by_role("option", name="Mumbai (Bombay)")).to_be_visible()
    city.fill("Beng")
    option = page.get_by_role("option", name="Bengaluru (Bangalore)")
    expect(option).to_be_visible()
    assert_no_axe_violations(page)
    option.click()
    expect(city).to_have_value("Bengaluru")


def test_cash_on_delivery_is_chosen_when_it_is_the_only_way_to_pay(shopper_page, shop):
    """With online payment unavailable, the payment step opens with Cash on Delivery already chosen."""
    page = shopper_page
    page.route("**/api/payments/config", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"success": true, "onlineAvailable": false, "message": "Online payment is not available at the moment."}'))
    put_in_cart(page, shop.book(title="Cash Only", stock=5))
    page.goto("/checkout")
    fill_shipping(page)
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile(r"^Pay Online"))).to_be_disabled()
    assert_no_axe_violations(page)


@pytest.mark.parametrize("path", ["/bestsellers", "/new-releases"])
def test_badges_stay_off_the_cover(shopper_page, path):
    """The #1 and NEW badges sit above each cover: no badge's box overlaps its cover's box."""
    page = shopper_page
    page.goto(path)
    cards = page.locator(".book-card").filter(has=page.locator(".book-card__badge"))
    expect(cards.first).to_be_visible()
    boxes = cards.evaluate_all("""(cards) => cards.slice(0, 6).map((card) => {
        const badge = card.querySelector('.book-card__badge').getBoundingClientRect();
        const cover = card.querySelector('.book-card__cover').getBoundingClientRect();
        return {badgeBottom: badge.bottom, coverTop: cover.top, coverHeight: cover.height};
    })""")
    assert boxes
    for box in boxes:
        assert box["coverHeight"] > 100, box
        assert box["badgeBottom"] <= box["coverTop"] + 0.5, box
    assert_no_axe_violations(page)


def test_category_icons_are_svg_and_no_emoji(shopper_page):
    """Every category card shows an SVG icon from the sprite, which loads; no emoji anywhere on the cards
    or in a category page's heading."""
    page = shopper_page
    page.goto("/categories")
    cards = page.locator(".category-card")
    expect(cards.first).to_be_visible()
    count = cards.count()
    assert count >= 18
    assert page.locator(".category-card__icon svg use").count() == count
    assert not EMOJI.search(page.locator(".category-grid").inner_text())
    sprite = page.locator(".category-card__icon svg use").first.get_attribute("href").split("#")[0]
    response = page.request.get(sprite)
    assert response.ok and "image/svg+xml" in response.headers["content-type"]
    symbols = set(re.findall(r'<symbol id="([^"]+)"', response.text()))
    used = {href.split("#")[1] for href in page.locator(".category-card__icon svg use").evaluate_all(
        "(uses) => uses.map((use) => use.getAttribute('href'))")}
    assert len(used) == count and used <= symbols, used - symbols
    page.goto("/category/gate")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(re.compile(r"GATE"))
    assert heading.locator("svg use").count() == 1 and not EMOJI.search(heading.inner_text())
    assert_no_axe_violations(page)


def test_home_has_one_newsletter_box_and_full_rows(shopper_page):
    """Home carries one newsletter box (the footer's), its book and category grids fill every row, and
    on wide screens the hero's right half shows featured covers."""
    page = shopper_page
    page.goto("/")
    expect(page.locator(".category-card").first).to_be_visible()
    expect(page.locator("form.newsletter__form")).to_have_count(1)
    for grid in (".book-grid", ".category-grid"):
        columns, items = page.locator(grid).first.evaluate("""(grid) => [
            getComputedStyle(grid).gridTemplateColumns.split(' ').length, grid.children.length]""")
        assert items % columns == 0, f"{grid}: {items} items in {columns} columns"
    covers = page.locator(".hero__covers")
    if page.viewport_size["width"] >= 900:
        expect(covers.locator("img")).to_have_count(3)
    else:
        expect(covers).to_be_hidden()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)


def test_footer_contact_comes_from_the_settings_and_hides_when_empty(shopper_page, shop):
    """Without contact settings the footer shows no e-mail, phone or social link (and the contact page no
    placeholder phone); once the admin sets them they show, the profile link going to the shop's own page."""
    page = shopper_page
    page.goto("/contact")
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_role("list", name="Follow us")).to_have_count(0)
    expect(footer.get_by_role("list", name="Contact us")).to_have_count(0)
    expect(page.get_by_text("80000 00000")).to_have_count(0)
    expect(page.locator('a[href="https://www.facebook.com/"]')).to_have_count(0)

    headers = admin_headers(page, shop)
    settings = {"contactEmail": "help@bookstore.example.in", "contactPhone": "+91 80 4000 1234",
                "contactHours": "Monday to Saturday, 9 AM to 6 PM IST",
                "socialLinks": {"instagram": "https://www.instagram.com/our.bookstore"}}
    assert page.request.put(SETTINGS, data=settings, headers=headers).ok
    try:
        page.goto("/contact")
        contact = footer.get_by_role("list", name="Contact us")
        expect(contact.get_by_role("link", name="help@bookstore.example.in")).to_have_attribute(
            "href", "mailto:help@bookstore.example.in")
        expect(contact.get_by_role("link", name="+91 80 4000 1234")).to_have_attribute("href", "tel:+918040001234")
        social = footer.get_by_role("list", name="Follow us").get_by_role("link")
        expect(social).to_have_count(1)
        expect(social).to_have_attribute("href", "https://www.instagram.com/our.bookstore")
        expect(social).to_have_accessible_name("Instagram (opens in a new tab)")
        reach = page.get_by_role("complementary", name="Reach Us")
        expect(reach.get_by_text("Monday to Saturday, 9 AM to 6 PM IST")).to_be_visible()
        assert_no_axe_violations(page)
        assert_no_horizontal_scroll(page)
    finally:
        cleared = {"contactEmail": "", "contactPhone": "", "contactHours": "", "socialLinks": {}}
        assert page.request.put(SETTINGS, data=cleared, headers=headers).ok
