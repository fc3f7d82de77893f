"""The client's own router (client/src/lib/router.jsx, on wouter) where other journeys do not reach it: a
parameter with an encoded space, the main menu's current page, and a link to the address already shown."""
import re

from playwright.sync_api import expect


def test_an_encoded_category_address_reaches_its_screen_decoded(page):
    """/category/i%20to%20xii%20school is the "I TO XII SCHOOL" category's page, not "Category not found"."""
    page.goto("/category/i%20to%20xii%20school")
    expect(page.get_by_role("heading", level=1, name="I TO XII SCHOOL")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Showing \d+ of \d+ books$"))).to_be_visible()


def test_the_main_menu_marks_the_current_page_and_a_link_to_it_adds_no_history_entry(page):
    """The menu link of the address shown is aria-current="page" (Home only on home itself); following the
    link of the address already shown replaces the entry, so one Back returns to the page before."""
    page.goto("/about")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="About")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Home")).not_to_have_attribute("aria-current", "page")
    nav.get_by_role("link", name="Books").click()
    expect(page).to_have_url(re.compile(r"/books$"))
    expect(page.get_by_role("heading", level=1, name="Books")).to_be_focused()
    expect(nav.get_by_role("link", name="Books")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="About")).not_to_have_attribute("aria-current", "page")
    nav.get_by_role("link", name="Books").click()
    page.go_back()
    expect(page).to_have_url(re.compile(r"/about$"))
    expect(nav.get_by_role("link", name="About")).to_have_attribute("aria-current", "page")
