"""Bills of supply: printed books are nil-rated (HSN 4901), so the shop issues a bill of supply, not a
tax invoice. A serial number per financial year (April to March, IST), consecutive and never reused,
is given once, when the order is first paid or delivered (migration 0024 numbered the orders paid before
bills existed); the PDF is drawn from the order on request, which writes nothing.

Numbering: `assign` first claims the order (a conditional UPDATE of `billed_at`, which locks its row on
PostgreSQL and takes SQLite's write lock), then bumps the year's `bill_counters` row with
UPDATE ... RETURNING in the same transaction. Two orders wait for each other on that row, so they
never share a number, and a transaction that rolls back takes its number back with it: no gaps.
"""
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite

from bookstore import clock
from bookstore.errors import Conflict, NotFound
from bookstore.extensions import db
from bookstore.models import BillCounter, Order
from bookstore.services import delivery
from bookstore.services.india import IST

log = logging.getLogger(__name__)

HSN_BOOKS = "4901"
MAX_NUMBER_LENGTH = 16  # GST rules: a serial number of at most 16 characters, unique for the financial year
PREFIX = "BS"
NOT_YET = "There is no bill for this order yet: a bill of supply is made once the order is paid or delivered."
NO_NUMBER = "This order has no bill number. Please tell the shop."
USED_UP = "This financial year's bill numbers are used up. Please tell the shop."
FONTS = Path(__file__).resolve().parent.parent / "fonts"


# Financial years and numbers

def financial_year(moment: datetime) -> str:
    """'2026-27' for any moment from 1 April 2026 00:00 IST to 31 March 2027 23:59 IST."""
    day = moment.astimezone(IST).date()
    start = day.year if day.month >= 4 else day.year - 1
    return f"{start}-{(start + 1) % 100:02d}"


def format_number(year: str, serial: int) -> str:
    """'BS/2627/000123': the prefix, the year's two halves and the serial (6 digits, more when needed).
    :raise Conflict: past 16 characters."""
    number = f"{PREFIX}/{year[2:4]}{year[5:7]}/{serial:06d}"
    if len(number) > MAX_NUMBER_LENGTH:
        raise Conflict(USED_UP)
    return number


# The largest serial that still fits in 16 characters ("BS/2627/99999999").
MAX_SERIAL = 10 ** (MAX_NUMBER_LENGTH - len(f"{PREFIX}/0000/")) - 1


def is_due(order: Order) -> bool:
    """A bill is owed once the order is paid (online, or cash collected) or delivered."""
    return order.payment_status == "paid" or order.status == "delivered"


def assign(order: Order) -> str:
    """The order's bill number, given now if it has none (in the caller's transaction; the caller commits).
    :raise Conflict: the year's numbers are used up (nothing is changed)."""
    if order.bill_number:
        return order.bill_number
    now = clock.now()
    claimed = db.session.execute(
        update(Order).where(Order.id == order.id, Order.billed_at.is_(None)).values(billed_at=now)
        .execution_options(synchronize_session=False)).rowcount == 1
    if not claimed:
        # Another transaction gave it a number and committed first.
        db.session.refresh(order)
        return order.bill_number
    year = financial_year(now)
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    db.session.execute(dialect.insert(BillCounter).values(financial_year=year, last_number=0)
                       .on_conflict_do_nothing(index_elements=[BillCounter.financial_year]))
    serial = db.session.scalar(
        update(BillCounter).where(BillCounter.financial_year == year, BillCounter.last_number < MAX_SERIAL)
        .values(last_number=BillCounter.last_number + 1).returning(BillCounter.last_number)
        .execution_options(synchronize_session=False))
    if serial is None:
        db.session.execute(update(Order).where(Order.id == order.id).values(billed_at=None)
                           .execution_options(synchronize_session=False))
        raise Conflict(USED_UP)
    number = format_number(year, serial)
    db.session.execute(update(Order).where(Order.id == order.id).values(bill_number=number)
                       .execution_options(synchronize_session=False))
    db.session.refresh(order)
    return number


def assign_when_due(order: Order) -> None:
    """In a payment's or delivery's transaction: number the bill if one is owed. A year whose numbers are
    used up never stops a payment; it is logged and the bill is refused when asked for."""
    if order.bill_number or not is_due(order):
        return
    try:
        assign(order)
    except Conflict:
        log.error("No bill number left for order %s in %s", order.order_number, financial_year(clock.now()))


def for_download(order: Order) -> bytes:
    """The order's bill as PDF bytes. Read-only (a GET never writes, product §12.3): numbers are given when
    the order is paid or delivered, and migration 0024 numbered the orders paid before bills existed.
    :raise NotFound: before the order is paid or delivered, or when it somehow has no number.
    :raise Conflict: it has none because the year's numbers are used up."""
    if not order.bill_number:
        if not is_due(order):
            raise NotFound(NOT_YET)
        used = db.session.get(BillCounter, financial_year(clock.now()))
        if used is not None and used.last_number >= MAX_SERIAL:
            raise Conflict(USED_UP)
        raise NotFound(NO_NUMBER)
    return render(order)


def is_cancelled(order: Order) -> bool:
    """A bill whose order was cancelled and refunded in full: it keeps its number (never given to another) and
    is marked cancelled wherever it is downloaded."""
    return bool(order.bill_number) and order.status == "cancelled" and order.payment_status == "refunded"


def file_name(order: Order) -> str:
    """'bill-BS-2627-000123.pdf'; 'bill-BS-2627-000123-cancelled.pdf' once cancelled."""
    suffix = "-cancelled" if is_cancelled(order) else ""
    return f"bill-{order.bill_number.replace('/', '-')}{suffix}.pdf"


# Amounts in words, Indian numbering

_ONES = ("Zero One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve Thirteen Fourteen Fifteen "
         "Sixteen Seventeen Eighteen Nineteen").split()
_TENS = "_ _ Twenty Thirty Forty Fifty Sixty Seventy Eighty Ninety".split()


def _below_hundred(n: int) -> str:
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


def _below_thousand(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    words = [f"{_ONES[hundreds]} Hundred"] if hundreds else []
    if rest:
        words.append(_below_hundred(rest))
    return " ".join(words)


def number_in_words(n: int) -> str:
    """Indian numbering: 12345678 -> 'One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight'."""
    if n == 0:
        return "Zero"
    crore, rest = divmod(n, 10 ** 7)
    lakh, rest = divmod(rest, 10 ** 5)
    thousand, rest = divmod(rest, 1000)
    words = []
    if crore:
        words.append(f"{number_in_words(crore)} Crore")
    if lakh:
        words.append(f"{_below_hundred(lakh)} Lakh")
    if thousand:
        words.append(f"{_below_hundred(thousand)} Thousand")
    if rest:
        words.append(_below_thousand(rest))
    return " ".join(words)


def rupees_in_words(paise: int) -> str:
    """'Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Fifty Paise Only'."""
    rupees, rest = divmod(paise, 100)
    text = f"Rupees {number_in_words(rupees)}"
    if rest:
        text += f" and {number_in_words(rest)} Paise"
    return text + " Only"


# The document

@dataclass(frozen=True)
class BillLine:
    description: str
    hsn: str
    quantity: int | None
    value_paise: int


def _line_values(order: Order) -> dict:
    """Each line's value after the coupon (shared out in proportion, the rest on the last line so the lines
    add up)."""
    books = list(order.lines)
    left = order.discount_paise
    values = {}
    for index, line in enumerate(books):
        if index == len(books) - 1:
            share = left
        else:
            share = order.discount_paise * line.line_total_paise // max(order.items_paise, 1)
        left -= share
        values[line] = line.line_total_paise - share
    return values


def copies_value(order: Order, line, copies: int) -> int:
    """What `copies` units of an order line are worth after the coupon: the share of an RTO parcel."""
    return _line_values(order)[line] * copies // line.quantity


def _came_back(order: Order) -> dict[int, int]:
    """Units of each line in parcels that came back undelivered and were refunded or never collected (RTO)."""
    if not order.id:
        return {}
    parcels = {shipment.id: shipment for shipment in order.shipments}
    back: dict[int, int] = {}
    for row in order.refunds:
        if row.kind == "rto" and row.status in ("refund_pending", "refunded", "not_collected") \
                and row.shipment_id in parcels:
            for part in parcels[row.shipment_id].lines:
                back[part.order_line_id] = back.get(part.order_line_id, 0) + part.quantity
    return back


def billed_total(order: Order) -> int:
    """The bill's total: the order's, less the parcels that came back undelivered (RTO)."""
    return sum(line.value_paise for line in lines_of(order)) + order.tax_paise


def lines_of(order: Order) -> list[BillLine]:
    """The books the shopper received at their value after the coupon (parcels that came back undelivered left
    out), then shipping and the cash-on-delivery fee: parts of one composite supply of books."""
    values = _line_values(order)
    back = _came_back(order)
    bill_lines = []
    for line in order.lines:
        kept = line.quantity - back.get(line.id, 0)
        if kept <= 0:
            continue
        value = values[line] - copies_value(order, line, back.get(line.id, 0))
        bill_lines.append(BillLine(f"{line.title} — {line.author}" if line.author else line.title, HSN_BOOKS,
                                   kept, value))
    if order.shipping_paise:
        bill_lines.append(BillLine("Shipping (part of the composite supply of books)", HSN_BOOKS, None,
                                   order.shipping_paise))
    if order.cod_fee_paise:
        bill_lines.append(BillLine("Cash on delivery fee (part of the composite supply of books)", HSN_BOOKS, None,
                                   order.cod_fee_paise))
    return bill_lines


def seller() -> dict:
    """The seller's name, address and GSTIN ("" when not registered) from the shop settings."""
    values = delivery.settings()
    return {"name": values["seller_name"], "address": values["seller_address"], "gstin": values["seller_gstin"]}


def render(order: Order) -> bytes:
    """The bill of supply as a PDF. The drawing (fpdf2, fonts, HarfBuzz) is imported here, when a bill is
    drawn: importing fpdf2 costs every web worker about 0.35 s at start-up otherwise."""
    from bookstore.services import bill_pdf
    return bill_pdf.render(order)
