""""Notify me" alerts in a real browser (issue 15): a guest asks on an out-of-stock book to be told when it is back,
sees the confirmation message, opens the e-mailed link and sees the alert confirmed; a signed-in shopper lists and
cancels their alerts on My Alerts; at 1280 and 360 px.

E-mails are read from the SMTP sink the served shop sends to; links are opened as a shopper would.
"""
import secrets

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.mailbox import link_in, wait_for_mail
from tests.e2e.support.shop import sign_in


@pytest.fixture(params=["page", "phone_page"], ids=["desktop", "phone"])
def any_page(request):
    return request.getfixturevalue(request.param)


def test_a_guest_asks_to_be_told_when_a_book_is_back(any_page, shop, smtp):
    """On an out-of-stock book page the guest gives an address, is asked to confirm by e-mail, and the
    e-mailed link confirms the alert; the screens are axe-clean and fit the width."""
    page = any_page
    book = shop.book(title="Modern Indian History", stock=0)
    email = f"guest-{secrets.token_hex(4)}@example.in"
    page.goto(f"/book/{book['_id']}")
    # (On phones the sticky buying bar repeats the button; the page's own one comes first.)
    expect(page.get_by_role("button", name="Out of Stock").first).to_be_disabled()
    page.get_by_label("Your e-mail for the alert").fill(email)
    page.get_by_role("button", name="Notify me when it's back").click()
    expect(page.get_by_text(f"Almost done: please confirm the alert from the e-mail we sent to {email}.")
           ).to_be_visible()
    expect(page.get_by_role("button", name="Tell me about new editions")).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    message = wait_for_mail(page, smtp, email, "Confirm your alert for 'Modern Indian History'")
    page.goto(link_in(message, "/alerts/confirm"))
    expect(page.get_by_role("heading", level=1, name="Confirm your alert")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(
        "Thank you! Your alert is confirmed: we will e-mail you once, when it happens.")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)


def test_a_book_in_stock_offers_new_edition_alerts_only(page, shop):
    """A book in stock has no back-in-stock form; "Tell me about new editions" asks a guest for the address."""
    book = shop.book(title="Quantitative Aptitude", stock=4)
    email = f"guest-{secrets.token_hex(4)}@example.in"
    page.goto(f"/book/{book['_id']}")
    expect(page.get_by_role("button", name="Add to Cart")).to_be_enabled()
    expect(page.get_by_role("button", name="Notify me when it's back")).to_have_count(0)
    page.get_by_role("button", name="Tell me about new editions").click()
    page.get_by_label("Your e-mail for the alert").fill(email)
    page.get_by_role("button", name="Tell me about new editions").click()
    expect(page.get_by_text(f"Almost done: please confirm the alert from the e-mail we sent to {email}.")
           ).to_be_visible()
    assert_no_axe_violations(page)


def test_the_book_dialog_offers_the_alert_too(page, shop):
    """The dialog opened from a grid shows the same form for an out-of-stock book, and the guest's ask is answered
    inside it."""
    name = f"Alertable{secrets.token_hex(3)}"
    shop.book(title=f"{name} Fluid Mechanics", category="gate", stock=0)
    email = f"guest-{secrets.token_hex(4)}@example.in"
    page.goto(f"/books?search={name}")
    page.get_by_role("link", name=f"{name} Fluid Mechanics").click()
    dialog = page.get_by_role("dialog", name=f"{name} Fluid Mechanics")
    expect(dialog.get_by_role("button", name="Out of Stock")).to_be_disabled()
    dialog.get_by_label("Your e-mail for the alert").fill(email)
    dialog.get_by_role("button", name="Notify me when it's back").click()
    expect(dialog.get_by_text(f"Almost done: please confirm the alert from the e-mail we sent to {email}.")
           ).to_be_visible()
    assert_no_axe_violations(page)


def test_a_shopper_lists_and_cancels_their_alerts(any_page, shop):
    """My Alerts (/alerts, from the profile) lists the signed-in shopper's alerts with the book, what each waits
    for and its state; Cancel alert deletes one and says so. A guest is sent to sign in first."""
    page = any_page
    page.goto("/alerts")
    page.wait_for_url("**/login?from=%2Falerts")
    user = shop.shopper(first_name="Meera", email_verified=True)
    gone = shop.book(title=f"Polity Notes {secrets.token_hex(3)}", stock=0)
    kept = shop.book(title=f"Ancient India {secrets.token_hex(3)}", stock=3)
    token = sign_in(page, user)["token"]
    for book, kind in ((gone, "back-in-stock"), (kept, "new-edition")):
        response = page.request.post(f"/api/books/{book['_id']}/alerts", data={"kind": kind},
                                     headers={"Authorization": f"Bearer {token}"})
        assert response.status == 201, response.text()

    page.goto("/profile")
    page.get_by_role("link", name="My Alerts").click()
    page.wait_for_url("**/alerts")
    expect(page.get_by_role("heading", level=1, name="My Alerts")).to_be_visible()
    items = page.get_by_role("listitem").filter(has=page.get_by_role("heading", level=2))
    expect(items).to_have_count(2)
    first = items.filter(has_text=kept["title"])
    expect(first.get_by_role("link", name=kept["title"])).to_have_attribute("href", f"/book/{kept['_id']}")
    expect(first).to_contain_text("When a new edition comes out")
    expect(first).to_contain_text("Active: we will e-mail you once")
    expect(items.filter(has_text=gone["title"])).to_contain_text("When it is back in stock")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.get_by_role("button", name=f"Cancel alert for {gone['title']} (when it is back in stock)").click()
    expect(page.get_by_role("status").get_by_role("paragraph")).to_have_text(
        f"Your alert for '{gone['title']}' is cancelled.")
    expect(items).to_have_count(1)
    expect(page.get_by_text(gone["title"], exact=True)).to_have_count(0)
    mine = page.request.get("/api/alerts/mine", headers={"Authorization": f"Bearer {token}"}).json()["alerts"]
    assert [alert["bookTitle"] for alert in mine] == [kept["title"]]
    assert_no_axe_violations(page)

    page.get_by_role("button", name=f"Cancel alert for {kept['title']} (when a new edition comes out)").click()
    expect(page.get_by_text("You have no alerts")).to_be_visible()
