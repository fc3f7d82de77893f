"""The admin's archived books, newsletter and audit log in a real browser (issue 15): a book in an order is
archived by Delete, shows only with "Show archived", and Restore puts it back in the shop; the newsletter list
shows confirmed subscribers only and its CSV export downloads them with the admin token; the audit log shows the
restore with the field before and after, filtered by entity.

Headless Chromium against gunicorn on the test database, at desktop (1280 px) and phone (360 px) widths. The
shopper's order and the archiving go through the HTTP API.
"""
import csv
import io
import re
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, NewsletterSubscriber
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, SHOPPER_PASSWORD, admin, admin_page,  # noqa: F401
                                     api, page_factory, server, sign_in)
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

BOOKS = "/admin/books"


def fresh(model, ident):
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    return db.session.get(model, ident)


def row(page, title: str):
    return page.get_by_role("row", name=re.compile(re.escape(title)))


def test_archived_book_shows_with_the_filter_and_restore_puts_it_back_on_sale(admin_page, server, admin, factories,
                                                                               api):
    """A book in an order is archived by DELETE; the admin list hides it until "Show archived" (kept in the URL)
    shows it with its badge and a Restore action; Restore asks first (Cancel changes nothing), then puts the book
    back in the shop, and the audit log shows book.restore with archived true → false."""
    page = admin_page
    book = factories.book(title="Previous Years GATE Papers", price_paise=45000, stock=4)
    factories.book(title="Engineering Mathematics Primer", stock=6)
    factories.user(email="buyer@example.in", password=SHOPPER_PASSWORD)
    api.place_cod_order(api.login("buyer@example.in", SHOPPER_PASSWORD), [(api.book(book.id), 1)])
    token = api.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    status, reply = api.call("DELETE", f"/api/books/{book.id}", token=token)
    assert (status, reply["archived"]) == (200, True)
    assert fresh(Book, book.id).archived is True

    sign_in(page, server, path=BOOKS)
    page.wait_for_url(server.base_url + BOOKS)
    expect(row(page, "Engineering Mathematics Primer")).to_be_visible()
    expect(row(page, "Previous Years GATE Papers")).to_have_count(0)
    expect(page.get_by_test_id("book-counts")).to_contain_text("1 archived")

    page.get_by_label("Show archived").click()  # the list follows the address, so the box ticks once it changed
    page.wait_for_url(server.base_url + BOOKS + "?archived=show")
    archived = row(page, "Previous Years GATE Papers")
    expect(archived).to_contain_text("Archived")
    expect(archived.get_by_role("button", name="Delete Previous Years GATE Papers")).to_have_count(0)
    expect(row(page, "Engineering Mathematics Primer").get_by_role("button", name="Restore Engineering Mathematics Primer")
           ).to_have_count(0)
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    # The filter lives in the address: a reload keeps it.
    page.reload()
    expect(page.get_by_label("Show archived")).to_be_checked()
    expect(row(page, "Previous Years GATE Papers")).to_contain_text("Archived")

    archived.get_by_role("button", name="Restore Previous Years GATE Papers").click()
    dialog = page.get_by_role("dialog", name="Restore book")
    expect(dialog).to_contain_text("Put this book back on sale?")
    assert_no_axe_violations(page)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert fresh(Book, book.id).archived is True

    archived.get_by_role("button", name="Restore Previous Years GATE Papers").click()
    page.get_by_role("dialog", name="Restore book").get_by_role("button", name="Restore").click()
    expect(page.get_by_role("status").filter(has_text="is on sale again")).to_contain_text(
        "“Previous Years GATE Papers” is on sale again.")
    restored = row(page, "Previous Years GATE Papers")
    expect(restored).not_to_contain_text("Archived")
    expect(restored.get_by_role("button", name="Delete Previous Years GATE Papers")).to_be_visible()
    assert fresh(Book, book.id).archived is False

    shop = page.context.new_page()
    shop.goto(server.base_url + f"/book/{book.id}")
    expect(shop.get_by_role("heading", level=1, name="Previous Years GATE Papers")).to_be_visible()
    shop.close()
    assert [found["_id"] for found in api.search("Previous Years GATE Papers")] == [str(book.id)]

    # The audit log names the restore, who did it, and the field that changed.
    page.goto(server.base_url + "/admin/audit")
    expect(page.get_by_role("heading", level=1, name="Audit log")).to_be_visible()
    entry = page.locator(f'[data-action="book.restore"][data-entity="book:{book.id}"]')
    expect(entry).to_contain_text(ADMIN_EMAIL)
    change = entry.locator('[data-field="archived"]')
    expect(change.locator(".adm-changes__old")).to_have_text("true")
    expect(change.locator(".adm-changes__new")).to_have_text("false")
    expect(page.locator(f'[data-action="book.archive"][data-entity="book:{book.id}"]')).to_be_visible()
    [stored] = [e for e in db.session.query(AuditEntry).filter_by(action="book.restore").all()]
    assert (stored.entity_id, stored.before, stored.after) == (str(book.id), {"archived": True}, {"archived": False})
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)


def test_audit_log_filters_by_entity_and_pages(page_factory, server, admin, factories, api):
    """The entity filter and an entity id (both in the URL) narrow the log to what the server returns for them;
    following an entry's entity shows that thing's history; 20 entries a page, newest first."""
    page = page_factory()
    token = api.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    books = [factories.book(title=f"Audit Book {n}", archived=True) for n in range(21)]
    for book in books:
        assert api.call("POST", f"/api/books/{book.id}/restore", None, token)[0] == 200
    status, _ = api.call("PUT", "/api/admin/shop-settings", {"codFee": 37}, token)
    assert status == 200

    sign_in(page, server, path="/admin/audit")
    page.wait_for_url(server.base_url + "/admin/audit")
    expect(page.get_by_text("22 changes, newest first")).to_be_visible()
    expect(page.locator("[data-action]")).to_have_count(20)
    expect(page.locator("[data-action]").first).to_have_attribute("data-action", "settings.update")
    page.get_by_role("navigation", name="Audit log pages").get_by_role("button", name="Next").click()
    page.wait_for_url(server.base_url + "/admin/audit?page=2")
    expect(page.locator("[data-action]")).to_have_count(2)

    page.get_by_label("Entity", exact=True).select_option("book")
    page.wait_for_url(server.base_url + "/admin/audit?type=book")
    expect(page.get_by_text("21 changes to books, newest first")).to_be_visible()
    expect(page.locator('[data-action="settings.update"]')).to_have_count(0)

    first = books[0]
    page.get_by_label("Entity id").fill(str(first.id))
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.locator("[data-action]")).to_have_count(1)
    entry = page.locator(f'[data-entity="book:{first.id}"]')
    expect(entry).to_have_attribute("data-action", "book.restore")
    expect(entry.locator('[data-field="archived"] .adm-changes__new')).to_have_text("false")
    assert_no_axe_violations(page)

    page.get_by_role("button", name="Clear").click()
    page.wait_for_url(server.base_url + "/admin/audit")
    page.locator(f'[data-entity="book:{books[5].id}"]').get_by_role("link").click()
    page.wait_for_url(re.compile(rf"/admin/audit\?type=book&search={books[5].id}$"))
    expect(page.locator("[data-action]")).to_have_count(1)


def test_newsletter_lists_confirmed_subscribers_and_exports_them(admin_page, server, admin):
    """Only confirmed, still-subscribed addresses are listed, with their dates; Export CSV downloads them through
    the API with the admin token (a bare link would have none)."""
    page = admin_page
    now = datetime.now(timezone.utc)
    db.session.add_all([
        NewsletterSubscriber(email="reader@example.in", confirmed_at=now - timedelta(days=1)),
        NewsletterSubscriber(email="pending@example.in", confirm_token="t" * 32),
        NewsletterSubscriber(email="gone@example.in", confirmed_at=now - timedelta(days=9),
                             unsubscribed_at=now - timedelta(days=2)),
    ])
    db.session.commit()

    sign_in(page, server, path="/admin/newsletter")
    page.wait_for_url(server.base_url + "/admin/newsletter")
    expect(page.get_by_role("heading", level=1, name="Newsletter")).to_be_visible()
    expect(page.get_by_text("1 confirmed subscriber")).to_be_visible()
    subscriber = page.locator('[data-subscriber="reader@example.in"]')
    expect(subscriber).to_contain_text("Confirmed")
    expect(page.locator("[data-subscriber]")).to_have_count(1)
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    exports = []
    page.on("request", lambda req: exports.append(req) if "export.csv" in req.url else None)
    with page.expect_download() as caught:
        page.get_by_role("button", name="Export CSV").click()
    download = caught.value
    assert re.fullmatch(r"newsletter-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename)
    rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8-sig").read())))
    assert rows[0] == ["E-mail", "Confirmed at (IST)"]
    assert [line[0] for line in rows[1:]] == ["reader@example.in"]
    assert exports and exports[0].headers.get("authorization", "").startswith("Bearer ")
    expect(page.get_by_role("status").filter(has_text="downloaded")).to_be_visible()
