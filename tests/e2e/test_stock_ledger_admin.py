"""The book editor shows a printed book's stock ledger and records an adjustment with its reason (product §5.9):
the server's 409 below 0 is shown, an accepted adjustment appears at the top of the ledger, and "More" pages on."""
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Book
from bookstore.services import stock
from tests.e2e.admin_support import admin, admin_page, page_factory, server, sign_in  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations


def test_admin_reads_the_ledger_and_adjusts_the_stock(admin_page, server, admin, factories, tmp_path):
    page = admin_page
    book = factories.book(title="Ledger Reasoning", stock=10, cover_key="covers/ab/abc.webp")
    stock.open_ledgers()
    for _ in range(20):  # 21 rows: the first page shows 20, "More" the opening row
        stock.move(book.id, 1, "adjustment", stock.Cause(reason="found"))
    db.session.commit()
    path = f"/admin/books/edit/{book.id}"
    sign_in(page, server, path=path)
    page.wait_for_url(server.base_url + path)
    panel = page.get_by_role("region", name="Stock ledger")
    expect(panel.get_by_role("status").first).to_have_text("30 in stock.")
    expect(panel.locator("tbody tr")).to_have_count(20)
    panel.get_by_role("button", name="More").click()
    expect(panel.locator("tbody tr")).to_have_count(21)
    expect(panel.locator("tbody tr").last).to_contain_text("Opening stock")
    assert_no_axe_violations(page)

    panel.get_by_label("Copies (+ to add, − to take off)").fill("-31")
    panel.get_by_label("Reason").select_option("lost")
    panel.get_by_role("button", name="Adjust stock").click()
    expect(panel.get_by_role("alert")).to_contain_text("The stock cannot go below 0: 30 copies are left.")

    panel.get_by_label("Copies (+ to add, − to take off)").fill("-2")
    panel.get_by_label("Reason").select_option("damaged")
    panel.get_by_label("Note").fill("Water damage")
    panel.get_by_role("button", name="Adjust stock").click()
    expect(panel.get_by_role("status").first).to_have_text("28 in stock.")
    first = panel.locator("tbody tr").first
    expect(first).to_contain_text("Adjustment")
    expect(first).to_contain_text("-2")
    expect(first).to_contain_text("Damaged: Water damage")
    page.screenshot(path=str(tmp_path / "stock-ledger.png"), full_page=True)
    db.session.expire_all()
    assert db.session.get(Book, book.id).stock == 28
