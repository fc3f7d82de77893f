"""The text of a feed's cells as the book form's values: Indian rupee notation, two date styles, ISBNs."""
import re
from datetime import date, datetime
from decimal import Decimal

from stdnum import isbn as stdnum_isbn
from stdnum.exceptions import InvalidChecksum, ValidationError as StdnumError

# ₹1,23,456.50, Rs. 1,250, INR 1250, 1,250.00 (Indian or Western grouping), 499.5
_RUPEES = re.compile(r"^(?:₹|rs\.?|inr)?\s*(\d{1,3}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?$", re.I)


class CellError(ValueError):
    """A cell that cannot be read as its column's value; the message is the report's sentence."""


def rupees(value, label: str) -> Decimal:
    """A price cell as rupees: `₹1,250.00` and `1,250` are Indian notation; a number cell as it is.

    :raise CellError: negative, or not an amount with at most 2 decimals.
    """
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        amount = Decimal(str(value))
        if amount < 0:
            raise CellError(f"{label} must not be negative.")
        if amount.as_tuple().exponent < -2:
            raise CellError(f"{label} must have at most 2 decimals (paise).")
        return amount
    text = str(value).strip().replace("\u00a0", " ")
    if text.startswith("-") or text.startswith("(") or "-" in text[:5]:
        raise CellError(f"{label} must not be negative.")
    match = _RUPEES.match(text)
    if not match:
        raise CellError(f"{label} must be an amount in rupees, like ₹1,250.00 or 1,250.")
    return Decimal(match.group(1).replace(",", "") + (match.group(2) or ""))


def day(value, label: str) -> date:
    """A date cell: DD/MM/YYYY, YYYY-MM-DD, ONIX's YYYYMMDD, or a spreadsheet's date.

    :raise CellError: any other text, or no such day.
    """
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value).strip()
    for pattern, shape in ((r"\d{1,2}/\d{1,2}/\d{4}", "%d/%m/%Y"), (r"\d{4}-\d{2}-\d{2}", "%Y-%m-%d"),
                           (r"\d{8}", "%Y%m%d")):
        if re.fullmatch(pattern, text):
            try:
                return datetime.strptime(text, shape).date()
            except ValueError:
                raise CellError(f"{label} {text} is not a day of the calendar.") from None
    raise CellError(f"{label} must be a date like 31/01/2025 or 2025-01-31.")


def whole_number(value, label: str) -> int:
    """A count or year: digits, or a spreadsheet number with nothing after the point.

    :raise CellError: anything else.
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().replace(",", "")
    if text.isascii() and text.isdigit():
        return int(text)
    raise CellError(f"{label} must be a whole number.")


def isbn13(value) -> str:
    """An ISBN cell as the 13 digits the shop keeps: hyphens and spaces dropped, an ISBN-10 converted.

    :raise CellError: not 10 or 13 digits, or a wrong check digit.
    """
    text = str(int(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    try:
        return stdnum_isbn.to_isbn13(stdnum_isbn.validate(text))
    except InvalidChecksum:
        raise CellError(f"ISBN {text.strip()}'s check digit is wrong; please check the number.") from None
    except StdnumError:
        raise CellError(f"ISBN {text.strip()} must have 10 or 13 digits (hyphens allowed).") from None


def isbn10(isbn: str) -> str | None:
    """The ISBN-10 a 978 ISBN-13 was, which older books may be stored under."""
    return stdnum_isbn.to_isbn10(isbn) if isbn.startswith("978") else None


def text(value) -> str:
    """A cell as text: numbers without a trailing .0, formulas (`=HYPERLINK(...)`) as the text they are."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.date().isoformat()
    return str(value).strip()
