"""CSV downloads for administrators: streamed row by row, and safe to open in a spreadsheet.

A cell that starts with = + - @ (or a tab or carriage return) would be run as a formula by Excel,
LibreOffice or Google Sheets (CSV injection): such cells get a leading apostrophe, which the
spreadsheet shows as text. The csv module does the quoting of commas, quotes and line breaks.
"""
import csv
import io
from collections.abc import Iterable, Iterator

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> str:
    """Text for one cell: None as empty, formula-like text defused."""
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def rows_to_csv(header: list[str], rows: Iterable[Iterable]) -> Iterator[str]:
    """The CSV text, a line at a time (header first), for a streamed response."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    # A byte-order mark tells Excel the file is UTF-8 (names in Hindi, the rupee sign).
    buffer.write("\ufeff")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
        if buffer.tell() > 16384:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
