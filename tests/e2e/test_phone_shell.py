"""The shop on a phone (issue 16): the header's search on every page, the full phone menu, the filters
sheet on /books, the book page's sticky buy bar, the book dialog as a history entry, and focus moving to
the heading of whatever changed; each at 360×740 and at 1280 px."""
import re
import secrets
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import ADDRESS, put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import sign_in
from tests.e2e.test_shopping import place_order

# Looked at by hand; the README's gallery (docs/screenshots/) takes the ones worth keeping.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e" / "phone-shell"


def query(page) -> dict:
    return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}


def word() -> str:
    """A made-up word no demo book contains, so a search finds exactly this test's books."""
    return "Qwv" + secrets.token_hex(3)


def focused(page) -> dict:
    """The focused element's tag and text (document.activeElement)."""
    return page.evaluate("() => ({ tag: document.activeElement.tagName.toLowerCase(),"
                         " text: document.activeElement.textContent.trim() })")


def expect_focus_on_heading(page, tag: str, text: str) -> None:
    """Focus lands on the heading (not <body>), which is what a screen reader then reads."""
    page.wait_for_function("([tag, text]) => document.activeElement.tagName.toLowerCase() === tag"
                           " && document.activeElement.textContent.includes(text)", arg=[tag, text])
    assert focused(page)["tag"] == tag


def shot(page, name: str) -> None:
    """A screenshot of the screen as the shopper sees it now."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture(params=["phone", "desktop"])
def any_page(request):
    """The same journey at 360×740 and at 1280×800."""
    return request.getfixturevalue("phone_page" if request.param == "phone" else "page"), request.param


@pytest.fixture
def series(shop):
    """14 GATE books sharing a unique word, priced ₹110 to ₹240, one of them Hindi."""
    name = word()
    books = [shop.book(title=f"{name} Mechanics Volume {n:02d}", category="gate", price_paise=11000 + n * 1000,
                       language="Hindi" if n == 3 else "English", format="Paperback", stock=5)
             for n in range(14)]
    return name, books


def test_header_search_suggests_on_every_page(any_page, series):
    """Away from home and /books the header's search box (a button first on a phone) suggests books:
    arrows and Enter open the chosen book's page, and a plain search goes to /books?search=."""
    page, size = any_page
    name, _books = series
    page.goto("/exams")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    header = page.get_by_role("banner")
    search = header.get_by_role("combobox", name="Search the shop")
    if size == "phone":
        expect(search).to_be_hidden()
        toggle = header.get_by_role("button", name="Show search")
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(search).to_be_focused()
    search.press_sequentially(name[:7] + " mech", delay=20)
    options = page.get_by_role("listbox", name="Suggestions").get_by_role("option")
    expect(options.first).to_contain_text(name)
    expect(search).to_have_attribute("aria-expanded", "true")
    # Dark text in the white list, not the header's white.
    assert options.first.locator(".search-suggest__title").evaluate("(el) => getComputedStyle(el).color") \
        == "rgb(28, 35, 32)"
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    shot(page, f"header-search-{size}")
    search.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    chosen = options.first.locator(".search-suggest__title").inner_text()
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/book/\d+$"))
    expect(page.get_by_role("heading", level=1, name=chosen)).to_be_visible()
    expect_focus_on_heading(page, "h1", chosen)

    if size == "phone":
        header.get_by_role("button", name="Show search").click()
    search.fill(name)
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/books\?search="))
    assert query(page) == {"search": name}
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}"')).to_be_visible()


def test_phone_menu_lists_every_shelf_and_the_shoppers_pages(phone_page, shop):
    """The phone menu has Categories, Exams, Best Sellers, New Releases and the account pages, and a
    followed link lands focus on the new screen's heading; the wide header keeps its short list."""
    page = phone_page
    page.goto("/about")
    header = page.get_by_role("banner")
    header.get_by_role("button", name="Menu").click()
    menu = [("navigation", "Main", ["Home", "Books", "Categories", "Exams", "Best Sellers", "New Releases", "About",
                                    "Contact"]),
            ("navigation", "Your account", ["My Orders", "Wishlist", "Track an Order"])]
    for role, label, links in menu:
        nav = header.get_by_role(role, name=label)
        for link in links:
            expect(nav.get_by_role("link", name=link, exact=True)).to_be_visible()
    expect(header.get_by_role("button", name="Login")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    shot(page, "phone-menu")
    header.get_by_role("link", name="Best Sellers").click()
    expect(page).to_have_url(re.compile(r"/bestsellers$"))
    expect(header.get_by_role("navigation", name="Main")).to_be_hidden()
    expect_focus_on_heading(page, "h1", "Best Sellers")



def test_phone_menu_shows_a_signed_in_shoppers_pages_once(phone_page, shop):
    """Signed in, the phone menu lists My Orders, Wishlist and My Profile once: in the account menu (as on the
    wide header), not also in its own list, which keeps Track an Order."""
    page = phone_page
    user = shop.shopper(first_name="Kavya")
    page.goto("/about")
    sign_in(page, user)
    page.reload()
    header = page.get_by_role("banner")
    header.get_by_role("button", name="Menu").click()
    account = header.get_by_role("navigation", name="Your account")
    expect(account.get_by_role("link", name="Track an Order")).to_be_visible()
    header.get_by_role("button", name="Account menu for Kavya").click()
    for name in ("My Orders", "Wishlist", "My Profile"):
        expect(header.get_by_role("link", name=name, exact=True)).to_have_count(1)
        expect(header.get_by_role("link", name=name, exact=True)).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    shot(page, "phone-menu-signed-in")
    header.get_by_role("link", name="My Orders").click()
    expect(page).to_have_url(re.compile(r"/orders$"))
    expect_focus_on_heading(page, "h1", "My Orders")


def test_wide_header_keeps_its_short_list(page):
    """At 1280 px the header shows Home, Books, About and Contact with the search box, not the phone's extras."""
    page.goto("/about")
    header = page.get_by_role("banner")
    nav = header.get_by_role("navigation", name="Main")
    for link in ("Home", "Books", "About", "Contact"):
        expect(nav.get_by_role("link", name=link, exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name="Best Sellers")).to_be_hidden()
    expect(header.get_by_role("navigation", name="Your account")).to_be_hidden()
    expect(header.get_by_role("combobox", name="Search the shop")).to_be_visible()
    expect(header.get_by_role("button", name="Show search")).to_be_hidden()


def test_phone_books_show_results_first_with_a_filters_sheet(phone_page, series):
    """At 360 px /books shows the results in the first screen, the sort beside a Filters button that counts
    the active filters, and the filters in a sheet whose changes apply at once."""
    page = phone_page
    name, _books = series
    page.goto(f"/books?search={name}&category=gate&language=English")
    expect(page.get_by_text(f'Showing 12 of 13 books for "{name}" in GATE')).to_be_visible()
    button = page.get_by_role("button", name=re.compile(r"^Filters"))
    expect(button).to_have_accessible_name("Filters 2 active")
    expect(page.get_by_role("group", name="Filter and sort books")).to_be_hidden()
    sort = page.get_by_label("Sort by")
    expect(sort).to_be_visible()
    first_card = page.get_by_role("list", name="Books").get_by_role("listitem").first
    box = first_card.bounding_box()
    assert box is not None and box["y"] < 740, f"the first result starts at {box} px, below the first screen"
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    shot(page, "books-filters-phone")

    sort.select_option("price-low")
    expect(page).to_have_url(re.compile(r"sortBy=price-low"))
    expect(first_card).to_contain_text(f"{name} Mechanics Volume 00")

    button.click()
    sheet = page.get_by_role("dialog", name="Filters")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_label("Category")).to_have_value("gate")
    sheet.get_by_label("Language").select_option("")
    expect(sheet.get_by_role("button", name="Show 14 books")).to_be_visible()
    sheet.get_by_label("Format").select_option("Paperback")
    expect(sheet.get_by_role("button", name="Show 14 books")).to_be_visible()
    assert_no_axe_violations(page)
    shot(page, "books-filter-sheet-phone")
    sheet.get_by_role("button", name="Show 14 books").click()
    expect(sheet).to_be_hidden()
    expect(button).to_have_accessible_name("Filters 2 active")
    expect(button).to_be_focused()
    assert query(page) == {"search": name, "category": "gate", "sortBy": "price-low", "format": "Paperback"}
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}" in GATE')).to_be_visible()

    button.click()
    sheet.get_by_role("button", name="Clear Filters").click()
    sheet.get_by_role("button", name="Close").click()
    expect(button).to_have_accessible_name("Filters")
    assert query(page) == {"sortBy": "price-low"}


def test_wide_books_keep_the_filters_inline(page, series):
    """At 1280 px the filters stay on the page, with no Filters button."""
    name, _books = series
    page.goto(f"/books?search={name}")
    expect(page.get_by_role("group", name="Filter and sort books")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Filters"))).to_have_count(0)


def test_book_page_keeps_price_and_add_to_cart_in_view_on_a_phone(phone_page, page, shop):
    """At 360 px the book page's price and Add to Cart stay in a bar at the bottom of the screen, wherever
    the shopper scrolls; at 1280 px there is no bar."""
    book = shop.book(title=f"{word()} Engineering Mathematics", category="gate", price_paise=52500, stock=3,
                     description="A long description. " * 60)
    phone_page.goto(f"/book/{book['_id']}")
    bar = phone_page.get_by_role("region", name="Buy this book")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("₹525.00")

    def in_view() -> bool:
        box = bar.bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740 + 1

    assert in_view()
    shot(phone_page, "book-buy-bar-phone")
    phone_page.mouse.wheel(0, 900)
    phone_page.wait_for_function("() => window.scrollY > 300")
    assert in_view()
    assert_no_horizontal_scroll(phone_page)
    assert_no_axe_violations(phone_page)
    bar.get_by_role("button", name="Add to Cart").click()
    expect(phone_page.get_by_role("link", name="Cart, 1 item")).to_be_visible()
    expect(bar).to_contain_text("Added to your cart.")

    page.goto(f"/book/{book['_id']}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Buy this book")).to_be_hidden()


def test_back_closes_the_book_dialog_and_keeps_the_list(any_page, series):
    """Opening a book from a list adds ?book= to the address: Back closes the dialog with the filters and
    the scroll position kept, Forward opens it again, and Close is the same as Back."""
    page, size = any_page
    name, _books = series
    page.goto(f"/books?search={name}&sortBy=title&minPrice=100")
    cards = page.get_by_role("list", name="Books").get_by_role("listitem")
    expect(cards).to_have_count(12)
    target = f"{name} Mechanics Volume 09"
    link = page.get_by_role("link", name=target)
    link.evaluate("(element) => element.scrollIntoView({ block: 'center' })")
    page.wait_for_timeout(200)
    scrolled = page.evaluate("() => window.scrollY")
    assert scrolled > 100
    link.click()
    dialog = page.get_by_role("dialog", name=target)
    expect(dialog).to_be_visible()
    book_id = query(page)["book"]
    assert query(page) == {"search": name, "sortBy": "title", "minPrice": "100", "book": book_id}
    assert_no_axe_violations(page)
    if size == "phone":
        shot(page, "book-dialog-phone")

    page.go_back()
    expect(dialog).to_be_hidden()
    assert query(page) == {"search": name, "sortBy": "title", "minPrice": "100"}
    expect(page.get_by_label("Sort by")).to_have_value("title")
    assert abs(page.evaluate("() => window.scrollY") - scrolled) <= 2
    expect(link).to_be_focused()

    page.go_forward()
    expect(page.get_by_role("dialog", name=target)).to_be_visible()
    assert query(page)["book"] == book_id
    assert abs(page.evaluate("() => window.scrollY") - scrolled) <= 2

    page.get_by_role("dialog").get_by_role("button", name="Close").last.click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert "book" not in query(page)
    assert abs(page.evaluate("() => window.scrollY") - scrolled) <= 2

    # A shared address with ?book= opens the dialog; closing it stays on the list.
    page.goto(f"/books?search={name}&book={book_id}")
    expect(page.get_by_role("dialog", name=target)).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert query(page) == {"search": name}
    page.go_back()
    expect(page).to_have_url(re.compile(r"minPrice=100"))


def test_focus_goes_to_the_heading_after_a_new_screen_or_page(any_page, series):
    """A followed link and another page of results put focus on the screen's h1 (a screen reader reads it),
    not on <body>."""
    page, size = any_page
    name, _books = series
    page.goto("/about")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.get_by_role("contentinfo").get_by_role("link", name="Shipping Information").click()
    expect(page).to_have_url(re.compile(r"/shipping$"))
    expect_focus_on_heading(page, "h1", "Shipping Information")

    page.goto(f"/books?search={name}")
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}"')).to_be_visible()
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Next").click()
    expect(page.get_by_text(f'Showing 2 of 14 books for "{name}"')).to_be_visible()
    expect_focus_on_heading(page, "h1", "Books")
    assert_no_axe_violations(page)


def test_checkout_steps_fit_a_phone_and_focus_each_step(any_page, shop):
    """Continue to Payment and Back put focus on the step's heading; the step indicator stays on one line
    at 360 px."""
    page, size = any_page
    book = shop.book(title=f"{word()} Reasoning", price_paise=30000, stock=4)
    put_in_cart(page, book)
    page.goto("/checkout")
    steps = page.get_by_role("list", name="Checkout progress").get_by_role("listitem")
    expect(steps).to_have_count(3)
    tops = {round(steps.nth(index).bounding_box()["y"]) for index in range(3)}
    assert len(tops) == 1, f"the steps wrap onto {len(tops)} lines"
    if size == "phone":
        shot(page, "checkout-steps-phone")
    for label, value in ADDRESS.items():
        page.get_by_label(label, exact=False).first.fill(value)
    city = page.get_by_role("combobox", name="City")
    city.fill("Ba")
    page.get_by_role("option", name="Bangalore").click()
    page.get_by_role("combobox", name="State").select_option("Karnataka")
    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_visible()
    expect_focus_on_heading(page, "h2", "Step 2 of 3: Payment")
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Back", exact=True).click()
    expect_focus_on_heading(page, "h2", "Step 1 of 3: Shipping")


def test_cancel_order_moves_focus_to_the_order(any_page, shop):
    """Cancel Order asks with focus on Keep Order; Keep Order returns to Cancel Order; Yes, Cancel It puts
    focus on the cancelled order's heading."""
    page, _size = any_page
    user = shop.shopper()
    book = shop.book(title=f"{word()} Polity", price_paise=20000, stock=5)
    page.goto("/")
    token = sign_in(page, user)["token"]
    order = place_order(page, book, token=token)
    page.goto("/orders")
    card = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=f"Order {order['orderNumber']}"))
    card.get_by_role("button", name=re.compile("Cancel Order")).click()
    expect(card.get_by_role("button", name="Keep Order")).to_be_focused()
    card.get_by_role("button", name="Keep Order").click()
    expect(card.get_by_role("button", name=re.compile("Cancel Order"))).to_be_focused()
    card.get_by_role("button", name=re.compile("Cancel Order")).click()
    card.get_by_role("button", name="Yes, Cancel It").click()
    expect(page.get_by_role("status").filter(has_text="has been cancelled")).to_contain_text(order["orderNumber"])
    expect_focus_on_heading(page, "h2", f"Order {order['orderNumber']}")
    assert_no_axe_violations(page)
