"""Readers that turn a feed file into rows of book fields, one row at a time (a 100,000-row file is never held).

`open_feed(stream)` looks at the file's first bytes: a ZIP is an XLSX workbook, `<` is ONIX XML, anything else
is CSV. Each reader yields `(row number, {column key: cell value})`, row numbers as a spreadsheet shows them
(the header is row 1) or, for ONIX, the product's place in the file. Empty cells are left out: a feed updates
only the fields it carries.
"""
import codecs
import csv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field

import openpyxl
from charset_normalizer import from_bytes
from lxml import etree

from bookstore.feeds import FeedRefused
from bookstore.feeds.columns import column_key
from bookstore.feeds.onix import ProductReader

# How much of a CSV file the encoding is guessed from.
_SAMPLE_BYTES = 256 * 1024
# An XML prolog (declaration, comments) longer than this before the root element is not an ONIX feed.
_PROLOG_BYTES = 64 * 1024
# A 100,000-row sheet of the shop's columns unpacks to about 100 MB.
XLSX_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024
# The encodings a spreadsheet writes a CSV in: UTF-8 (with or without a byte-order mark) and Excel's Windows-1252.
_CSV_ENCODINGS = ["utf_8", "cp1252"]


Row = tuple[int, dict]


@dataclass
class Feed:
    """An opened feed: what kind of file it is, its header's columns the shop does not read, and its rows."""

    file_type: str
    rows: Iterator[Row]
    unknown_columns: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # the keys of the header's known columns (CSV and XLSX)


def open_feed(stream) -> Feed:
    """The feed in a binary, seekable file.

    :raise FeedRefused: an empty file, a workbook or XML that cannot be read, XML with a DOCTYPE, or a CSV
        without a header naming an ISBN column.
    """
    start = stream.read(8)
    stream.seek(0)
    if not start:
        raise FeedRefused("The file is empty.")
    if start.startswith(b"PK\x03\x04"):
        return _xlsx(stream)
    if start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return _onix(stream)
    return _csv(stream)


def _columns(header) -> tuple[list[str | None], list[str]]:
    keys = [column_key(name) for name in header]
    unknown = [str(name).strip() for name, key in zip(header, keys) if key is None and str(name or "").strip()]
    seen = set()
    for n, key in enumerate(keys):
        if key in seen:
            keys[n] = None  # a repeated column: the first one counts
            unknown.append(str(header[n]).strip())
        seen.add(key)
    if "isbn" not in keys:
        raise FeedRefused("The header row must name an ISBN column (and the columns the shop's export writes).")
    return keys, unknown


def _cells(keys: list[str | None], values) -> dict:
    row = {}
    for key, value in zip(keys, values):
        if key is None or value is None:
            continue
        if isinstance(value, str):
            value = value.strip()
            if not value:
                continue
        row[key] = value
    return row


def csv_encoding(sample: bytes) -> str:
    """UTF-8 with a byte-order mark, else what charset-normalizer finds between UTF-8 and Windows-1252."""
    if sample.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
        return "utf-8"  # valid so far (the sample may end inside a character)
    except UnicodeDecodeError:
        pass
    best = from_bytes(sample, cp_isolation=_CSV_ENCODINGS).best()
    return best.encoding if best is not None else "cp1252"


def _decoded(stream, encoding: str) -> Iterator[str]:
    """The file's lines as text, decoded one by one, so a byte that is not `encoding` is refused with its line."""
    for number, line in enumerate(stream, start=1):
        try:
            yield line.decode(encoding)
        except UnicodeDecodeError:
            raise FeedRefused(f"Line {number} is not {encoding} text; save the sheet as CSV UTF-8.") from None


def _csv(stream) -> Feed:
    encoding = csv_encoding(stream.read(_SAMPLE_BYTES))
    stream.seek(0)
    reader = csv.reader(_decoded(stream, encoding))
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise FeedRefused(f"The file cannot be read as CSV: {error}.") from None
    if header is None:
        raise FeedRefused("The file is empty.")
    keys, unknown = _columns(header)

    def rows():
        try:
            # Numbered by record, as a spreadsheet numbers its rows (a quoted cell may hold line breaks).
            for number, values in enumerate(reader, start=2):
                if any(value.strip() for value in values):
                    yield number, _cells(keys, values)
        except csv.Error as error:
            raise FeedRefused(f"Line {reader.line_num} cannot be read as CSV: {error}.") from None

    return Feed("csv", rows(), unknown, [key for key in keys if key])


def _unpacked_size(stream) -> int:
    """What the workbook's parts declare they unpack to (zipfile never inflates a part past its declared size)."""
    try:
        with zipfile.ZipFile(stream) as archive:
            return sum(part.file_size for part in archive.infolist())
    except zipfile.BadZipFile:
        raise FeedRefused("The workbook cannot be read: it is not a valid XLSX file.") from None
    finally:
        stream.seek(0)


def _xlsx(stream) -> Feed:
    # A ZIP bomb: openpyxl keeps the shared strings in memory, so a workbook that unpacks past the limit is refused.
    if _unpacked_size(stream) > XLSX_MAX_UNPACKED_BYTES:
        raise FeedRefused(f"The workbook unpacks to more than {XLSX_MAX_UNPACKED_BYTES // 1024 // 1024} MB; "
                          "save it as CSV instead.")
    try:
        # read_only streams the sheet's XML; formulas stay the text they are (data_only would read cached results).
        book = openpyxl.load_workbook(stream, read_only=True, data_only=False)
    except Exception as error:  # openpyxl raises zipfile, KeyError and its own errors for a broken workbook
        raise FeedRefused(f"The workbook cannot be read: {type(error).__name__}.") from None
    sheet = book.worksheets[0]
    values = sheet.iter_rows(values_only=True)
    header = next(values, None)
    if header is None:
        book.close()
        raise FeedRefused("The workbook's first sheet is empty.")
    keys, unknown = _columns(header)

    def rows():
        try:
            for number, cells in enumerate(values, start=2):
                if any(cell is not None and str(cell).strip() for cell in cells):
                    yield number, _cells(keys, cells)
        finally:
            book.close()

    return Feed("xlsx", rows(), unknown, [key for key in keys if key])


def _onix(stream) -> Feed:
    prolog = stream.read(_PROLOG_BYTES)
    stream.seek(0)
    upper = prolog.upper()
    # A DOCTYPE can only come before the root element, so the prolog tells: entity expansion ("billion laughs")
    # and external entities are refused before any parser sees them; lxml is also told not to resolve any.
    if b"<!DOCTYPE" in upper or b"<!ENTITY" in upper:
        raise FeedRefused("XML with a DOCTYPE or entities is refused; ONIX 3.0 needs neither.")
    events = etree.iterparse(stream, events=("start", "end"), resolve_entities=False, no_network=True,
                             huge_tree=False, load_dtd=False, remove_comments=True, remove_pis=True)
    return Feed("onix", ProductReader(events).rows())
