"""Paise and rupees convert in one module, exactly, and read the Indian way."""
from decimal import Decimal

import pytest

from bookstore import money


@pytest.mark.parametrize("paise, rupees", [(49900, 499), (4950, 49.5), (435, 4.35), (1, 0.01), (0, 0),
                                           (12345650, 123456.5)])
def test_api_rupees_are_whole_numbers_when_whole_else_two_decimals(paise, rupees):
    """The API's figures: whole rupees as integers, anything else as the exact two-decimal number."""
    shown = money.to_rupees(paise)
    assert shown == rupees
    assert isinstance(shown, int) == (paise % 100 == 0)


@pytest.mark.parametrize("rupees, paise", [("4.35", 435), (4.35, 435), ("0.1", 10), ("499", 49900), (499, 49900),
                                           (Decimal("1234.50"), 123450), (" 19.99 ", 1999), ("0", 0),
                                           (1.1, 110), (0.29, 29), ("1e2", 10000)])
def test_rupees_become_paise_through_decimal_never_float(rupees, paise):
    """Typed amounts become exact paise: "4.35" is 435 (float maths would make it 434)."""
    assert int(4.35 * 100) == 434  # the trap this module exists to avoid
    assert money.to_paise(rupees) == paise


@pytest.mark.parametrize("bad", ["4.355", 0.001, "abc", "", "NaN", "Infinity", float("inf"), True, None, [], "₹5"])
def test_what_is_not_rupees_and_paise_is_refused(bad):
    """More than two decimals, text that is no number, infinities and booleans are not amounts."""
    with pytest.raises(ValueError):
        money.to_paise(bad)


@pytest.mark.parametrize("negative", ["-1", -0.01, Decimal("-499")])
def test_negative_amounts_are_refused_as_input(negative):
    """No price, fee or limit is below zero: parsing one refuses it, while reading it as a number does not."""
    with pytest.raises(ValueError):
        money.to_paise(negative)
    assert money.parse_rupees(negative) < 0


@pytest.mark.parametrize("paise, text", [(0, "₹0"), (4000, "₹40"), (4950, "₹49.50"), (500000, "₹5,000"),
                                         (10000000, "₹1,00,000"), (12345650, "₹1,23,456.50"),
                                         (1234567800, "₹1,23,45,678"), (99999999, "₹9,99,999.99"), (-4000, "-₹40")])
def test_text_for_people_uses_indian_grouping(paise, text):
    """Thousands, then lakhs and crores: ₹1,23,456.50; whole rupees without paise."""
    assert money.rupees_text(paise) == text


def test_receipts_always_show_paise():
    """Order e-mails print every figure with its paise (₹940.00), in Indian grouping."""
    assert money.rupees_text(94000, always_paise=True) == "₹940.00"
    assert money.rupees_text(12345650, always_paise=True) == "₹1,23,456.50"
    assert money.rupees_text(5, always_paise=True) == "₹0.05"


@pytest.mark.parametrize("paise, text", [(0, "0.00"), (5, "0.05"), (49900, "499.00"), (123450, "1234.50"),
                                         (12345650, "123456.50"), (-4950, "-49.50")])
def test_machine_text_has_two_decimals_and_no_grouping(paise, text):
    """CSV cells and schema.org prices: plain digits with two decimals."""
    assert money.decimal_text(paise) == text


@pytest.mark.parametrize("paise", [0, 1, 99, 100, 435, 4950, 49999, 12345650])
def test_paise_survive_the_round_trip(paise):
    """Paise shown as rupees and read back are the same paise."""
    assert money.to_paise(money.to_rupees(paise)) == paise
    assert money.to_paise(money.decimal_text(paise)) == paise
