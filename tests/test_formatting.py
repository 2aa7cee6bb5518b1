"""How a probability is written: exact and short, a percentage that never rounds to 0 or 100
unless it is, and long fractions shown as percentages."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from coronas.formatting import is_long, listing, percent, readable_probability


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(7, 12), "58.33%"),
        (Fraction(1), "100.00%"),
        (Fraction(0), "0.00%"),
        (Fraction(9999, 10000), "99.99%"),
        (Fraction(99999, 100000), ">99.99%"),  # 99.999% would round up to 100.00%
        (Fraction(1, 100000), "<0.01%"),  # 0.001% would round down to 0.00%
        (Fraction(1, 20000), "0.01%"),  # 0.005% rounds to 0.01% (float half-even aside)
    ],
)
def test_percent_never_rounds_to_certainty(p, text):
    assert percent(p) == text


def test_percent_with_fewer_places():
    assert percent(Fraction(9996, 10000), digits=1) == ">99.9%"
    assert percent(Fraction(4, 10000), digits=1) == "<0.1%"


def test_a_fraction_of_twelve_digits_is_short_and_of_thirteen_long():
    assert not is_long(Fraction(1, 10**12 - 1))  # 999999999999: 12 digits
    assert is_long(Fraction(1, 10**12))  # 13 digits
    assert is_long(Fraction(10**12, 10**12 + 1))
    assert not is_long(sympy.Rational(19, 27))


def test_readable_probability():
    assert readable_probability(Fraction(19, 27)) == "19/27 (70.37%)"
    p = Fraction(2**40, 3**40)  # 0.00000009
    assert readable_probability(p) == "<0.01%"
    assert readable_probability(p, exact=True) == f"{2**40}/{3**40} (<0.01%)"
    q = Fraction(3**26 - 1, 3**26 * 2)  # just under 1/2
    assert readable_probability(q) == "50.00%"


def test_listing_writes_names_as_a_sentence():
    assert listing(("red", "yellow", "green", "blue", "pink")) == "red, yellow, green, blue or pink"
    assert listing(["a", "b"], "and") == "a and b"
    assert listing([]) == ""
