"""An administrator gives an e-book its file from the book form (product §7.11): the form says there is none yet,
refuses a file that is not a PDF or EPUB with the server's message, and stores a real PDF."""
import re

from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Book
from tests.e2e.admin_support import admin, admin_page, page_factory, server, sign_in  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations


def assert_fits(page, locator) -> None:
    """The panel and everything in it stay inside the viewport (the cover field above has its own layout)."""
    right = locator.evaluate("(el) => Math.max(...[el, ...el.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right))")
    assert right <= page.evaluate("document.documentElement.clientWidth") + 1


def test_admin_uploads_an_e_books_file(admin_page, server, admin, factories, tmp_path):
    """No file yet is said; a disguised file is refused with the server's message; a PDF is stored (1280, 360 px)."""
    page = admin_page
    book = factories.book(title="Upload Me Reasoning", format="E-Book", stock=0)
    path = f"/admin/books/edit/{book.id}"
    sign_in(page, server, path=path)
    page.wait_for_url(server.base_url + path)
    panel = page.get_by_role("region", name="E-book file")
    expect(panel).to_contain_text("No file yet: shoppers see this book as unavailable")
    assert_no_axe_violations(page)
    assert_fits(page, panel)

    fake = tmp_path / "book.pdf"
    fake.write_bytes(b"<html>not a pdf</html>")
    panel.get_by_label(re.compile("Upload the file")).set_input_files(str(fake))
    panel.get_by_role("button", name="Upload file").click()
    expect(panel.get_by_role("alert")).to_contain_text("The file must be a PDF or EPUB")

    real = tmp_path / "real.pdf"
    real.write_bytes(b"%PDF-1.4\n% a tiny book\n%%EOF\n")
    panel.get_by_label(re.compile("Upload the file")).set_input_files(str(real))
    panel.get_by_role("button", name="Upload file").click()
    expect(panel.get_by_role("status")).to_contain_text("Stored: Upload Me Reasoning.pdf (application/pdf")
    expect(panel.get_by_label(re.compile("Replace the file"))).to_be_visible()
    assert_no_axe_violations(page)
    db.session.expire_all()
    stored = db.session.get(Book, book.id)
    assert stored.file_type == "application/pdf" and stored.file_size == len(real.read_bytes())
