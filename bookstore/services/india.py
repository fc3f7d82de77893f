"""Reference data for India: states and union territories, and the shop's clock (IST)."""
from datetime import timedelta, timezone

# India Standard Time: UTC+05:30 all year (no daylight saving), the shop's calendar for reports.
IST = timezone(timedelta(hours=5, minutes=30), "IST")
IST_NAME = "Asia/Kolkata"

STATES_AND_UNION_TERRITORIES = (
    "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chhattisgarh", "Goa", "Gujarat", "Haryana",
    "Himachal Pradesh", "Jharkhand", "Karnataka", "Kerala", "Madhya Pradesh", "Maharashtra", "Manipur",
    "Meghalaya", "Mizoram", "Nagaland", "Odisha", "Punjab", "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana",
    "Tripura", "Uttar Pradesh", "Uttarakhand", "West Bengal",
    "Andaman and Nicobar Islands", "Chandigarh", "Dadra and Nagar Haveli and Daman and Diu", "Delhi",
    "Jammu and Kashmir", "Ladakh", "Lakshadweep", "Puducherry",
)

_BY_LOWER = {name.lower(): name for name in STATES_AND_UNION_TERRITORIES}
_BY_LOWER.update({"nct of delhi": "Delhi", "new delhi": "Delhi", "orissa": "Odisha", "pondicherry": "Puducherry"})


def canonical_state(text: str) -> str | None:
    """The official name of a state or union territory written in any case, or None."""
    return _BY_LOWER.get(" ".join(text.split()).lower().replace("&", "and"))
