"""The admin sets the shop's contact details and social profiles on Shipping & payments (issue 16): a
platform's home page is refused beside its field, the shop's own profile is saved and the footer shows it; the shop
address (the seller's, on bills and mails) is the contact page's."""
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.services import delivery
from tests.e2e.admin_support import (admin, admin_page, page_factory, server, sign_in)  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

SCREEN = "/admin/shipping-payments"


def test_admin_sets_the_contact_details_the_footer_shows(admin_page, server, admin):
    """A phone number and an Instagram profile typed by the admin are saved once the profile is the shop's own
    page (the platform's home page is refused beside the field), and the storefront's footer shows both."""
    page = admin_page
    sign_in(page, server, path=SCREEN)
    page.wait_for_url(server.base_url + SCREEN)
    page.get_by_label("Contact phone").fill("+91 80 4000 1234")
    instagram = page.get_by_label("Instagram profile")
    instagram.fill("https://www.instagram.com/")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#field-shop-socialInstagram .adm-field__error")).to_have_text(
        "Must be the shop's own page, not the platform's home page.")
    expect(instagram).to_have_attribute("aria-invalid", "true")
    db.session.commit()
    assert delivery.settings()["contact_phone"] == ""
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    instagram.fill("https://www.instagram.com/our.bookstore")
    page.get_by_label("Shop address").fill("12 Residency Road, Bengaluru, Karnataka 560025")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    db.session.commit()
    saved = delivery.settings()
    assert saved["contact_phone"] == "+91 80 4000 1234"
    assert saved["social_links"] == {"instagram": "https://www.instagram.com/our.bookstore"}
    assert saved["seller_address"] == "12 Residency Road, Bengaluru, Karnataka 560025"

    page.goto(server.base_url + "/")
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_role("link", name="+91 80 4000 1234")).to_be_visible()
    expect(footer.get_by_role("link", name="Instagram (opens in a new tab)")).to_have_attribute(
        "href", "https://www.instagram.com/our.bookstore")
    # The one shop address (the seller's, on bills and mails) is the contact page's too.
    page.goto(server.base_url + "/contact")
    expect(page.get_by_role("complementary", name="Reach Us").get_by_text(
        "12 Residency Road, Bengaluru, Karnataka 560025")).to_be_visible()
