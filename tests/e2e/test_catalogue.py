"""Catalogue journeys: browse and filter with the URL keeping state, suggestions, the book dialog and
page, categories, shelves, the FAQ, the footer newsletter, the 404 screen and the phone layout."""
import re
import secrets
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.mailbox import link_in, wait_for_mail


def query(page) -> dict:
    return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}


def word() -> str:
    """A made-up word no demo book contains, so a search finds exactly this test's books."""
    return "Zyx" + secrets.token_hex(3)


@pytest.fixture
def series(shop):
    """14 GATE books sharing a unique word, priced ₹110 to ₹240, one of them Hindi."""
    name = word()
    books = [shop.book(title=f"{name} Mechanics Volume {n}", category="gate", price_paise=11000 + n * 1000,
                       language="Hindi" if n == 3 else "English", format="Paperback")
             for n in range(14)]
    return name, books


def test_browse_filter_sort_and_pages_live_in_the_url(page, series):
    """Search, category, sort, price and page are in the URL; Back restores each state; Clear Filters resets."""
    name, books = series
    page.goto("/books")
    expect(page.get_by_text(re.compile(r"^Showing 12 of [\d,]+ books$"))).to_be_visible()
    assert_no_axe_violations(page)

    search = page.get_by_role("combobox", name="Search books")
    search.fill(name)
    search.press("Enter")
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}"')).to_be_visible()
    assert query(page) == {"search": name}

    page.get_by_label("Category").select_option("gate")
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}" in GATE')).to_be_visible()
    page.get_by_label("Sort by").select_option("price-low")
    expect(page).to_have_url(re.compile(r"sortBy=price-low"))
    first = page.get_by_role("list", name="Books").get_by_role("listitem").first
    expect(first).to_contain_text(f"{name} Mechanics Volume 0")
    expect(first).to_contain_text("₹110.00")

    pages = page.get_by_role("navigation", name="Pages")
    expect(pages.get_by_role("link", name="Page 1")).to_have_attribute("aria-current", "page")
    pages.get_by_role("link", name="Next").click()
    expect(page.get_by_text(f'Showing 2 of 14 books for "{name}" in GATE')).to_be_visible()
    assert query(page) == {"search": name, "category": "gate", "sortBy": "price-low", "page": "2"}
    expect(pages.get_by_role("link", name="Page 2")).to_have_attribute("aria-current", "page")
    expect(pages.get_by_text("Next")).to_have_attribute("aria-disabled", "true")

    page.reload()  # a shared link or a reload shows the same page
    expect(page.get_by_text(f'Showing 2 of 14 books for "{name}" in GATE')).to_be_visible()
    expect(page.get_by_label("Sort by")).to_have_value("price-low")

    page.go_back()
    expect(page.get_by_text(f'Showing 12 of 14 books for "{name}" in GATE')).to_be_visible()
    assert "page" not in query(page)
    page.go_back()
    expect(page.get_by_label("Sort by")).to_have_value("")

    page.get_by_label("Max price (₹)").fill("150")
    expect(page).to_have_url(re.compile(r"maxPrice=150"))
    expect(page.get_by_text(f'Showing 5 of 5 books for "{name}" in GATE')).to_be_visible()
    page.get_by_label("Language").select_option("Hindi")
    expect(page.get_by_text(f'Showing 1 of 1 book for "{name}" in GATE')).to_be_visible()
    page.get_by_label("Format").select_option("Audiobook")
    expect(page.get_by_role("heading", name="No books found")).to_be_visible()
    assert_no_axe_violations(page)
    page.get_by_role("main").get_by_role("button", name="Clear Filters").last.click()
    expect(page.get_by_text(re.compile(r"^Showing 12 of [\d,]+ books$"))).to_be_visible()
    assert query(page) == {}


def test_search_suggestions_open_the_book(page, series):
    """Typing shows live suggestions; arrows and Enter pick one, which opens its dialog; Escape closes it."""
    name, _books = series
    page.goto("/books")
    search = page.get_by_role("combobox", name="Search books")
    search.press_sequentially(name[:6] + " mech", delay=20)
    options = page.get_by_role("listbox", name="Suggestions").get_by_role("option")
    expect(options.first).to_contain_text(name)
    expect(search).to_have_attribute("aria-expanded", "true")
    assert options.count() <= 8
    expect(options.first).to_contain_text("+ ₹40.00 shipping per order")
    search.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    chosen = options.first.locator(".search-suggest__title").inner_text()
    search.press("Enter")
    dialog = page.get_by_role("dialog", name=chosen)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("+ ₹40.00 shipping per order")
    assert "search" not in query(page)  # choosing a suggestion does not search
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(search).to_be_focused()


def test_a_misspelt_search_offers_did_you_mean(page, shop):
    """A search that finds nothing as typed shows the corrected search's books and "Did you mean" as a
    link, which puts the corrected words in the URL."""
    name = word()
    shop.book(title=f"{name} Thermodynamics", category="gate")
    typo = name[:-2] + name[-1] + name[-2] if name[-1] != name[-2] else name[:-1] + "q"
    page.goto(f"/books?search={typo}")
    corrected = name.lower()
    expect(page.get_by_text(f'Showing 1 of 1 book for "{corrected}"')).to_be_visible()
    expect(page.get_by_role("list", name="Books")).to_contain_text(f"{name} Thermodynamics")
    link = page.get_by_role("link", name=corrected, exact=True)
    expect(page.get_by_text("Did you mean")).to_contain_text(f"Nothing matched “{typo}”")
    assert_no_axe_violations(page)
    link.click()
    expect(page).to_have_url(re.compile(f"search={corrected}"))
    expect(page.get_by_text(f'Showing 1 of 1 book for "{corrected}"')).to_be_visible()
    expect(page.get_by_text("Did you mean")).to_have_count(0)


def test_book_dialog_from_a_grid_and_the_shareable_page(page, shop):
    """The grid opens the dialog (focus kept inside, Escape closes); its link leads to /book/{id}."""
    name = word()
    book = shop.book(title=f"{name} Thermodynamics", category="gate", price_paise=45000, stock=4,
                     isbn="9780000000019", publisher="Agra Press")
    sold_out = shop.book(title=f"{name} Fluid Mechanics", category="gate", stock=0)
    page.goto(f"/books?search={name}&sortBy=title")
    page.get_by_role("link", name=f"{name} Fluid Mechanics").click()
    dialog = page.get_by_role("dialog", name=f"{name} Fluid Mechanics")
    expect(dialog.get_by_role("button", name="Out of Stock")).to_be_disabled()
    expect(dialog).to_contain_text("Out of stock")
    dialog.get_by_role("button", name="Close").first.click()
    expect(dialog).to_be_hidden()

    page.get_by_role("link", name=f"{name} Thermodynamics").click()
    dialog = page.get_by_role("dialog", name=f"{name} Thermodynamics")
    expect(dialog).to_contain_text("₹450.00")
    expect(dialog).to_contain_text("+ ₹40.00 shipping per order")
    expect(dialog).to_contain_text("9780000000019")
    expect(dialog).to_contain_text("Agra Press")
    # A placeholder stands in for the missing cover.
    expect(dialog.get_by_role("img", name=f"No cover image for {name} Thermodynamics")).to_be_visible()
    assert_no_axe_violations(page)
    for _ in range(12):  # Tab never leaves the dialog
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('dialog')")
    dialog.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("link", name="Cart, 1 item")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("link", name=f"{name} Thermodynamics")).to_be_focused()

    page.get_by_role("link", name=f"{name} Thermodynamics").click()
    page.get_by_role("dialog").get_by_role("link", name="View full page").click()
    expect(page).to_have_url(re.compile(rf"/book/{book['_id']}$"))
    expect(page.get_by_role("heading", level=1, name=f"{name} Thermodynamics")).to_be_visible()
    expect(page).to_have_title(f"{name} Thermodynamics by Test Author — Bookstore")
    expect(page.get_by_role("heading", name="More in GATE")).to_be_visible()
    assert_no_axe_violations(page)

    page.goto(f"/book/{sold_out['_id']}")  # a first visit straight to the page (the server's embedded book)
    expect(page.get_by_role("main").get_by_role("button", name="Out of Stock")).to_be_disabled()
    page.goto("/book/99999999")
    expect(page.get_by_role("heading", name="Book not found")).to_be_visible()


def test_categories_and_a_category_page(page):
    """18 categories from the API; a card leads to the category's own page with its books."""
    page.goto("/categories")
    cards = page.get_by_role("main").get_by_role("list").first.get_by_role("link")
    expect(cards).to_have_count(18)
    expect(page).to_have_title("Categories — Bookstore")
    assert_no_axe_violations(page)
    page.get_by_role("link", name=re.compile(r"^GATE")).click()
    expect(page).to_have_url(re.compile(r"/books\?category=gate$"))
    expect(page.get_by_text(re.compile(r"in GATE$"))).to_be_visible()

    page.goto("/")
    page.get_by_role("link", name=re.compile(r"^B\.COM")).click()
    expect(page).to_have_url(re.compile(r"/category/b\.com$"))
    expect(page.get_by_role("heading", level=1, name="B.COM")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Showing \d+ of \d+ books$"))).to_be_visible()
    assert_no_axe_violations(page)


def test_best_sellers_ranked_and_new_releases_dated_by_category(page, shop):
    """Best sellers show rank and copies sold and new releases a NEW mark and date, each filtered by a category kept
    in the address, with no accessibility violations."""
    page.goto("/bestsellers")
    grid = page.get_by_role("list", name="Best Sellers")
    expect(grid.get_by_role("listitem").first).to_contain_text("Rank #1")
    expect(grid.get_by_role("listitem").first).to_contain_text("sold")
    page.get_by_label("Category").select_option("banking")
    expect(page).to_have_url(re.compile(r"/bestsellers\?category=banking$"))
    assert_no_axe_violations(page)

    page.goto("/new-releases?category=gate")
    expect(page.get_by_label("Category")).to_have_value("gate")
    first = page.get_by_role("list", name="New Releases").get_by_role("listitem").first
    expect(first).to_contain_text("NEW")
    expect(first.locator("time")).to_be_visible()
    assert_no_axe_violations(page)


def test_faq_opens_one_answer_at_a_time(page):
    """The FAQ opens one answer at a time, by click or keyboard, and clicking the open question closes it."""
    page.goto("/faq")
    questions = page.get_by_role("main").get_by_role("button")
    expect(questions).to_have_count(12)
    first, second = questions.nth(0), questions.nth(1)
    first.click()
    expect(first).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("region", name=first.inner_text())).to_be_visible()
    second.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-expanded", "true")
    expect(first).to_have_attribute("aria-expanded", "false")
    second.click()  # clicking the open item closes it
    expect(second).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("main").get_by_role("region")).to_have_count(0)  # every answer hidden again
    assert_no_axe_violations(page)


def test_newsletter_from_the_footer_sends_a_confirmation_that_works(page, smtp):
    """The footer box subscribes for real: the e-mail reaches the inbox and its link confirms."""
    address = f"reader-{secrets.token_hex(4)}@example.in"
    page.goto("/about")
    footer = page.get_by_role("contentinfo")
    footer.get_by_label("E-mail address").fill(address)
    footer.get_by_role("button", name="Subscribe").click()
    expect(footer.get_by_role("status")).to_contain_text("please confirm")
    message = wait_for_mail(page, smtp, address)
    page.goto(link_in(message, "/newsletter/confirm"))
    expect(page.get_by_text("Thank you! Your subscription is confirmed.")).to_be_visible()


def test_unknown_address_shows_the_not_found_screen(page):
    """An unknown address shows the Page not found screen and title, with no accessibility violations."""
    page.goto("/no/such/shelf")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    expect(page).to_have_title("Page not found — Bookstore")
    assert_no_axe_violations(page)


SCREENS = [("/", "Bookstore — Study & Exam Books"), ("/books", "All Books — Bookstore"),
           ("/categories", "Categories — Bookstore"), ("/category/gate", "GATE Books — Bookstore"),
           ("/bestsellers", "Best Sellers — Bookstore"), ("/new-releases", "New Releases — Bookstore"),
           ("/about", "About Us — Bookstore"), ("/shipping", "Shipping Information — Bookstore"),
           ("/faq", "Frequently Asked Questions — Bookstore"), ("/privacy", "Privacy Policy — Bookstore"),
           ("/terms", "Terms of Service — Bookstore"), ("/cookies", "Cookie Policy — Bookstore"),
           ("/return-policy", "Return Policy — Bookstore")]


@pytest.mark.parametrize("path,title", SCREENS)
def test_every_screen_is_titled_accessible_and_fits_a_phone(page, phone_page, path, title):
    """Each screen sets its own title and description, passes axe, and never scrolls sideways at 360 px."""
    page.goto(path)
    expect(page).to_have_title(title)
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    assert page.locator('meta[name="description"]').count() == 1
    page.wait_for_load_state("networkidle")
    assert_no_axe_violations(page)
    phone_page.goto(path)
    expect(phone_page).to_have_title(title)
    phone_page.wait_for_load_state("networkidle")
    assert_no_horizontal_scroll(phone_page)
    assert_no_axe_violations(phone_page)


def test_phone_menu_opens_navigates_and_closes(phone_page):
    """On a phone the menu opens, closes on Escape with focus back on its button, and closes after navigating,
    without horizontal scrolling."""
    phone_page.goto("/")
    header = phone_page.get_by_role("banner")
    toggle = header.get_by_role("button", name="Menu")
    nav = header.get_by_role("navigation", name="Main")
    expect(nav).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(nav).to_be_visible()
    assert_no_horizontal_scroll(phone_page)
    phone_page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(toggle).to_be_focused()
    toggle.click()
    nav.get_by_role("link", name="Books").click()
    expect(phone_page).to_have_url(re.compile(r"/books$"))
    expect(nav).to_be_hidden()
    expect(header.get_by_role("link", name=re.compile(r"^Cart, "))).to_be_visible()
