"""Digital books (product §7.11) in the browser: an e-book's checkout asks no address and offers online payment
only, and once paid the order page's Download button hands over the file, for a guest through the e-mailed link."""
import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.mailbox import link_in, wait_for_mail

_serial = itertools.count(1)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e" / "digital"


@pytest.mark.parametrize("screen", ["page", "phone_page"])
def test_a_guest_buys_an_e_book_and_downloads_it(request, screen, shop, smtp, razorpay):
    """No address, no shipping, no cash on delivery; paid, the order is delivered and the Download button on the
    order page (opened from the paid e-mail) gives the PDF, counting the downloads left."""
    page = request.getfixturevalue(screen)
    book = shop.digital_book(title=f"Digital Reasoning Notes {next(_serial)}", price_paise=19900)
    email = f"ebook-{next(_serial)}-{id(_serial) % 10000}@example.in"
    put_in_cart(page, book)
    page.goto("/checkout")
    expect(page.get_by_text("Your cart holds only e-books and audiobooks")).to_be_visible()
    expect(page.get_by_label("Address", exact=True)).to_have_count(0)
    expect(page.get_by_role("combobox", name="City")).to_have_count(0)
    for label, value in {"First Name": "Kavya", "Last Name": "Rao", "Email": email, "Phone": "9812345678"}.items():
        page.get_by_label(label, exact=False).first.fill(value)
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_disabled()
    expect(page.get_by_text("E-books and audiobooks are paid online only.", exact=False)).to_be_visible()
    page.get_by_role("radio", name="Pay Online").check()
    assert_no_axe_violations(page)
    before = len(smtp.messages)
    page.get_by_role("button", name="Place Order").click()
    checkout = page.get_by_role("dialog", name="Fake Razorpay Checkout")
    expect(checkout).to_contain_text("Amount: 199.00 INR")  # no shipping
    checkout.get_by_role("button", name="Pay").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    expect(page.locator("dt:text-is('Payment Status') + dd")).to_have_text("Paid")
    number = page.locator("dt:text-is('Order Number') + dd").inner_text()
    order = shop.order(number)
    assert order.status == "delivered" and order.shipping_paise == 0 and order.address == ""

    mail = wait_for_mail(page, smtp, email, "confirmed", after=before)
    assert "download each up to 5 times until" in mail.get_body(("plain",)).get_content()
    page.context.clear_cookies()
    page.goto(link_in(mail, f"/orders/{order.public_id}"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {number}")
    button = page.get_by_role("button", name=re.compile(f"Download {book['title']}"))
    expect(button).to_be_visible()
    expect(page.get_by_text("5 downloads left")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    with open(download.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
    expect(page.get_by_text("4 downloads left")).to_be_visible()
    assert shop.order(number).lines[0].downloads == 1
    # A picture of the order page for people reviewing the flow (test-artifacts/e2e/digital/).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"downloaded-{screen}.png"), full_page=True)
