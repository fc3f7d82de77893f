"""Feed readers stream: each yields a row before reading the rest of the file, so a 100,000-row feed is never
held whole (the bench measures it: bench/feed_dry_run.py). Proven by files whose tail is broken: the first rows
come out before the reader reaches the break, and the break is then refused with its line."""
import io
import types

import openpyxl
import pytest

from bookstore.feeds import FeedRefused
from bookstore.feeds.readers import csv_encoding, open_feed


def test_a_csv_is_read_a_row_at_a_time():
    """Rows come out one by one; bytes that are not UTF-8 far into the file are refused when reached, by line."""
    good = "ISBN,Title\r\n" + "".join(f"97893000{n:05d},Book {n}\r\n" for n in range(20000))
    content = good.encode() + b"9789300099999,Caf\xe9\r\n"
    feed = open_feed(io.BytesIO(content))
    assert isinstance(feed.rows, types.GeneratorType)
    assert next(feed.rows) == (2, {"isbn": "9789300000000", "title": "Book 0"})
    with pytest.raises(FeedRefused, match="Line 20002 is not utf-8 text"):
        list(feed.rows)


def test_an_onix_file_is_read_a_product_at_a_time():
    """A product is yielded before the XML after it is parsed; the break is refused when reached."""
    content = (b'<ONIXMessage xmlns="http://ns.editeur.org/onix/3.0/reference"><Product><ProductIdentifier>'
               b"<ProductIDType>15</ProductIDType><IDValue>9789300000017</IDValue></ProductIdentifier></Product>"
               b"<Product><broken></Product></ONIXMessage>")
    feed = open_feed(io.BytesIO(content))
    assert next(feed.rows) == (1, {"isbn": "9789300000017"})
    with pytest.raises(FeedRefused, match="not well formed"):
        next(feed.rows)


def test_an_xlsx_sheet_is_read_a_row_at_a_time():
    """A workbook's rows come from openpyxl's read-only sheet, one by one, with spreadsheet row numbers."""
    book = openpyxl.Workbook()
    book.active.append(["isbn", "TITLE", "Colour"])
    book.active.append([9789300000017, "One", "red"])
    book.active.append([None, None, None])
    book.active.append(["9789300000024", "=HYPERLINK(\"http://x\")", None])
    out = io.BytesIO()
    book.save(out)
    feed = open_feed(io.BytesIO(out.getvalue()))
    assert feed.unknown_columns == ["Colour"]
    assert isinstance(feed.rows, types.GeneratorType)
    assert list(feed.rows) == [(2, {"isbn": 9789300000017, "title": "One"}),
                               (4, {"isbn": "9789300000024", "title": '=HYPERLINK("http://x")'})]


@pytest.mark.parametrize("sample, encoding", [
    ("ISBN,Title\r\n1,Godaan – Premchand\r\n".encode("utf-8-sig"), "utf-8-sig"),
    ("ISBN,Title\r\n1,Godaan – Premchand\r\n".encode("utf-8"), "utf-8"),
    ("ISBN,Title\r\n1,Godaan – Premchand’s Café\r\n".encode("cp1252"), "cp1252"),
])
def test_the_csv_encoding_is_found(sample, encoding):
    """UTF-8 with or without a byte-order mark, and Excel's Windows-1252 through charset-normalizer."""
    assert csv_encoding(sample) == encoding
