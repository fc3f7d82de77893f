"""Money: integer paise inside the shop; rupees at its edges (API numbers, typed amounts, text for people).

Every conversion goes through here, never through float arithmetic: `int(4.35 * 100)` is 434.
"""
from decimal import Decimal, InvalidOperation

PAISE_PER_RUPEE = 100


def to_rupees(paise: int) -> int | float:
    """Paise as the API's rupee number: whole rupees as an integer (49900 -> 499), else two decimals (4950 -> 49.5)."""
    if paise % PAISE_PER_RUPEE == 0:
        return paise // PAISE_PER_RUPEE
    return float(Decimal(paise) / PAISE_PER_RUPEE)


def parse_rupees(value) -> Decimal:
    """A rupee amount as sent (499, 499.5, "4.35") as an exact Decimal.

    :raise ValueError: not a finite number, more than 2 decimals, or a boolean.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise ValueError(f"not an amount: {value!r}")
    try:
        # Through str(), so a float arrives as the digits the client sent (4.35, not 4.3499999...).
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"not an amount: {value!r}") from None
    if not amount.is_finite() or amount.as_tuple().exponent < -2:
        raise ValueError(f"not an amount in rupees and paise: {value!r}")
    return amount


def to_paise(rupees) -> int:
    """Rupees (a Decimal, an integer or text such as "4.35") as integer paise: "4.35" -> 435.

    :raise ValueError: not an amount with at most 2 decimals, or below zero (no price, fee or limit is negative).
    """
    amount = parse_rupees(rupees)
    if amount < 0:
        raise ValueError(f"a negative amount: {rupees!r}")
    return int(amount * PAISE_PER_RUPEE)


def decimal_text(paise: int) -> str:
    """Rupees with two decimals and no symbol or grouping, for machines (CSV cells, schema.org): 123450 -> '1234.50'."""
    rupees, rest = divmod(abs(paise), PAISE_PER_RUPEE)
    return f"{'-' if paise < 0 else ''}{rupees}.{rest:02d}"


def rupees_text(paise: int, *, always_paise: bool = False) -> str:
    """Rupees for people, with the ₹ sign and Indian digit grouping: 12345650 -> '₹1,23,456.50',
    500000 -> '₹5,000' (or '₹5,000.00' with always_paise, as receipts print it)."""
    rupees, rest = divmod(abs(paise), PAISE_PER_RUPEE)
    text = f"{'-' if paise < 0 else ''}₹{indian_grouping(rupees)}"
    return text + (f".{rest:02d}" if rest or always_paise else "")


def indian_grouping(number: int) -> str:
    """Digits grouped the Indian way, thousands then lakhs and crores: 12345678 -> '1,23,45,678'."""
    digits = str(number)
    head, tail = digits[:-3], digits[-3:]
    groups = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(([head] if head else []) + groups + [tail])
