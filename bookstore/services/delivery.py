"""Delivery to a PIN: the shop's delivery and cash-on-delivery rules, and when a parcel would arrive.

The rules are shop settings an administrator edits (`shop_settings`, one JSON value per key; a key
without a row has its default from product §10.6). `rules()` is what checkout reads; `estimate(pin,
now)` is the answer to "delivery to my PIN", from the shop's dispatch PIN, the zone of the two
places, business days per zone, the daily dispatch cut-off (IST), Sundays and listed holidays.
"""
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from types import MappingProxyType

from flask import current_app
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from bookstore.errors import ValidationFailed
from bookstore.extensions import db
from bookstore.models import ShopSetting, User, utcnow
from bookstore.money import rupees_text
from bookstore.services import audit, pin_directory
from bookstore.services.india import IST
from bookstore.services.pin_directory import SPECIAL_STATES, Place

# Zones, nearest first; each PIN falls in the first that fits (see zone_of).
ZONES = ("sameCity", "sameState", "metro", "restOfIndia", "special")
SUNDAY = 6
PIN_MESSAGE = "PIN code must be 6 digits and cannot start with 0."
UNKNOWN_PIN_MESSAGE = "We can't confirm delivery to this PIN."
UNSERVICEABLE_MESSAGE = "We don't deliver to this PIN yet."

# Stored form of every setting (paise, ISO dates, "HH:MM" in IST) and its default (product §10.6).
DEFAULTS: dict[str, object] = {
    "dispatch_pin": "560001",  # the shop's address on the contact page: MG Road, Bengaluru
    "dispatch_cutoff": "14:00",
    "holidays": [],
    # shipping_paise per zone: None (the default) charges the shop's flat shipping_paise there.
    "zones": {
        "sameCity": {"min_days": 1, "max_days": 2, "cod": True, "shipping_paise": None},
        "sameState": {"min_days": 2, "max_days": 4, "cod": True, "shipping_paise": None},
        "metro": {"min_days": 2, "max_days": 4, "cod": True, "shipping_paise": None},
        "restOfIndia": {"min_days": 4, "max_days": 7, "cod": True, "shipping_paise": None},
        "special": {"min_days": 6, "max_days": 10, "cod": True, "shipping_paise": None},
    },
    "unserviceable_pins": [],
    "cod_pins": {},  # PIN -> true/false: an exception to its zone's COD rule
    "cod_limit_paise": 500000,
    "cod_fee_paise": 0,
    "shipping_paise": 4000,
    "free_shipping_threshold_paise": None,
    "open_cod_orders_per_contact": 3,
    "max_quantity_per_line": 10,
    # Copies unpaid orders (online awaiting payment, cash on delivery not yet confirmed) may hold per IP and
    # per browser: one IP once held 4,000 copies with fresh e-mails (checkout._check_copies_held).
    "unpaid_copies_per_buyer": 50,
    # A cash-on-delivery order of more printed copies waits for the shop's confirmation (LARGE_COD_HOLD_HOURS).
    "large_cod_copies": 10,
    # How shoppers reach the shop (the footer and the contact page): empty until an admin fills them in,
    # and nothing shows while a value is empty. The shop's address is the seller's, below.
    "contact_email": "",
    "contact_phone": "",
    "contact_hours": "",
    "social_links": {},  # platform (SOCIAL_PLATFORMS) -> the shop's own profile address
    # The seller printed on bills of supply and in every e-mail's footer; GSTIN "" means not registered.
    # The address is the shop's one postal address: also on the contact page (migration 0021 merged the
    # contact address into it).
    "seller_name": "Bookstore",
    "seller_address": "2nd Floor, MG Road, Bengaluru, Karnataka 560001",
    "seller_gstin": "",
}


@dataclass(frozen=True)
class ZoneRule:
    """Business days from dispatch to delivery in a zone, whether cash on delivery is offered there, and
    its shipping fee (None: the shop's flat fee)."""

    min_days: int
    max_days: int
    cod: bool
    shipping_paise: int | None = None


@dataclass(frozen=True)
class Rules:
    """The shop's delivery, fee and cash-on-delivery rules as they stand now (read by checkout too)."""

    dispatch_pin: str
    dispatch_cutoff: time
    holidays: frozenset[date]
    zones: MappingProxyType
    unserviceable_pins: frozenset[str]
    cod_pins: MappingProxyType
    cod_limit_paise: int
    cod_fee_paise: int
    shipping_paise: int
    free_shipping_threshold_paise: int | None
    open_cod_orders_per_contact: int
    max_quantity_per_line: int
    unpaid_copies_per_buyer: int = 50
    large_cod_copies: int = 10
    contact_email: str = ""
    contact_phone: str = ""
    contact_hours: str = ""
    seller_address: str = ""
    social_links: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    def serviceable(self, place: Place | None) -> bool:
        """A PIN the directory knows and the shop has not ruled out."""
        return place is not None and place.pin not in self.unserviceable_pins

    def cod_for(self, place: Place | None) -> bool:
        """Cash on delivery to this place: its PIN's exception, else its zone's rule."""
        if not self.serviceable(place):
            return False
        if place.pin in self.cod_pins:
            return self.cod_pins[place.pin]
        return self.zones[zone_of(place, self)].cod

    def shipping_for(self, items_paise: int, place: Place | None = None) -> int:
        """The shipping fee of an order whose items come to items_paise, sent to `place`: free from the
        threshold, else the fee of the place's zone when it has one, else the flat fee (no or unknown PIN)."""
        threshold = self.free_shipping_threshold_paise
        if threshold is not None and items_paise >= threshold:
            return 0
        return self.zone_shipping_for(place)

    def zone_shipping_for(self, place: Place | None) -> int:
        """The shipping fee to a place below the free-shipping threshold: its zone's fee, else the flat fee."""
        if self.serviceable(place):
            fee = self.zones[zone_of(place, self)].shipping_paise
            if fee is not None:
                return fee
        return self.shipping_paise

    def working_day(self, day: date) -> bool:
        """Parcels are dispatched and delivered on days other than Sundays and listed holidays."""
        return day.weekday() != SUNDAY and day not in self.holidays

    def add_working_days(self, day: date, count: int) -> date:
        """The working day `count` working days after `day` (`day` itself for 0)."""
        while count > 0:
            day += timedelta(days=1)
            if self.working_day(day):
                count -= 1
        return day

    def dispatch_day(self, now: datetime) -> date:
        """Today in IST when it is a working day before the cut-off, else the next working day."""
        local = _aware(now).astimezone(IST)
        today = local.date()
        if self.working_day(today) and local.time() < self.dispatch_cutoff:
            return today
        return self.add_working_days(today, 1)


@dataclass(frozen=True)
class Estimate:
    """The answer for one PIN: where it is, whether and how the shop delivers there, and when."""

    pin: str
    place: Place | None
    serviceable: bool
    zone: str | None
    cod: bool
    cod_limit_paise: int | None
    cod_fee_paise: int | None
    earliest: date | None
    latest: date | None
    message: str
    shipping_paise: int | None = None  # below the free-shipping threshold; None where the shop won't deliver


def normalise_pin(text: str) -> str:
    """'560 001' -> '560001'. :raise ValidationFailed: unless 6 digits with a non-zero first digit."""
    pin = pin_directory.normalise(text) if isinstance(text, str) else None
    if pin is None:
        raise ValidationFailed({"pin": [PIN_MESSAGE]})
    return pin


def lookup(pin: str) -> Place | None:
    """The directory's place for a PIN ('560 001' allowed), or None when it is unknown. :raise ValidationFailed:"""
    return pin_directory.lookup(normalise_pin(pin))


def settings() -> dict:
    """Every setting in its stored form (paise, ISO dates), defaults filled in."""
    stored = {row.key: row.value for row in db.session.scalars(select(ShopSetting))}
    defaults = {**DEFAULTS, **_deployment_defaults()}
    merged = {key: stored.get(key, default) for key, default in defaults.items()}
    # Zones merge one by one, so a zone added to the defaults later still has its rule; a rule stored
    # before zones had fees has none (the flat fee).
    merged["zones"] = {**DEFAULTS["zones"], **{name: {"shipping_paise": None, **rule}
                                                for name, rule in (stored.get("zones") or {}).items()
                                                if name in DEFAULTS["zones"]}}
    return merged


def _deployment_defaults() -> dict:
    """The anti-hoarding limits start from the deployment's settings (MAX_QUANTITY_PER_LINE,
    OPEN_COD_ORDERS_PER_CONTACT, UNPAID_COPIES_PER_BUYER); an administrator's saved value wins over them."""
    config = current_app.config
    return {"max_quantity_per_line": config.get("MAX_QUANTITY_PER_LINE", DEFAULTS["max_quantity_per_line"]),
            "open_cod_orders_per_contact": config.get("OPEN_COD_ORDERS_PER_CONTACT",
                                                      DEFAULTS["open_cod_orders_per_contact"]),
            "unpaid_copies_per_buyer": config.get("UNPAID_COPIES_PER_BUYER", DEFAULTS["unpaid_copies_per_buyer"])}


def rules() -> Rules:
    """The rules in force, typed: what estimates use and what checkout should enforce."""
    return _rules_from(settings())


def _rules_from(values: dict) -> Rules:
    hours, minutes = (int(part) for part in values["dispatch_cutoff"].split(":"))
    return Rules(
        dispatch_pin=values["dispatch_pin"],
        dispatch_cutoff=time(hours, minutes),
        holidays=frozenset(date.fromisoformat(day) for day in values["holidays"]),
        zones=MappingProxyType({name: ZoneRule(rule["min_days"], rule["max_days"], rule["cod"], rule["shipping_paise"])
                                for name, rule in values["zones"].items()}),
        unserviceable_pins=frozenset(values["unserviceable_pins"]),
        cod_pins=MappingProxyType(dict(values["cod_pins"])),
        cod_limit_paise=values["cod_limit_paise"],
        cod_fee_paise=values["cod_fee_paise"],
        shipping_paise=values["shipping_paise"],
        free_shipping_threshold_paise=values["free_shipping_threshold_paise"],
        open_cod_orders_per_contact=values["open_cod_orders_per_contact"],
        max_quantity_per_line=values["max_quantity_per_line"],
        unpaid_copies_per_buyer=values["unpaid_copies_per_buyer"],
        large_cod_copies=values["large_cod_copies"],
        contact_email=values["contact_email"],
        contact_phone=values["contact_phone"],
        contact_hours=values["contact_hours"],
        seller_address=values["seller_address"],
        social_links=MappingProxyType(dict(values["social_links"])),
    )


def zone_of(place: Place, shop_rules: Rules) -> str:
    """The zone of a place seen from the dispatch PIN: same city (the metro, else the district), same
    state, special (north-east, J&K, Ladakh, the islands: to or from), metro to metro, rest of India."""
    origin = pin_directory.lookup(shop_rules.dispatch_pin)
    if origin is None:
        return "restOfIndia"
    if place.area == origin.area:
        return "sameCity"
    if place.state_key == origin.state_key:
        return "sameState"
    if place.state_key in SPECIAL_STATES or origin.state_key in SPECIAL_STATES:
        return "special"
    if place.metro and origin.metro:
        return "metro"
    return "restOfIndia"


def estimate(pin: str, now: datetime | None = None, shop_rules: Rules | None = None) -> Estimate:
    """Where a PIN is, whether the shop delivers there (and cash on delivery), and the delivery dates
    for an order placed at `now`. An unknown PIN is an answer, not an error. :raise ValidationFailed:"""
    pin = normalise_pin(pin)
    shop_rules = shop_rules or rules()
    place = pin_directory.lookup(pin)
    if place is None:
        return Estimate(pin, None, False, None, False, None, None, None, None, UNKNOWN_PIN_MESSAGE,
                        shop_rules.shipping_paise)
    if not shop_rules.serviceable(place):
        return Estimate(pin, place, False, None, False, None, None, None, None, UNSERVICEABLE_MESSAGE)
    zone = zone_of(place, shop_rules)
    rule = shop_rules.zones[zone]
    dispatch = shop_rules.dispatch_day(now or utcnow())
    earliest = shop_rules.add_working_days(dispatch, rule.min_days)
    latest = shop_rules.add_working_days(dispatch, rule.max_days)
    cod = shop_rules.cod_for(place)
    return Estimate(pin, place, True, zone, cod, shop_rules.cod_limit_paise if cod else None,
                    shop_rules.cod_fee_paise if cod else None, earliest, latest,
                    _message(place, earliest, latest, cod, shop_rules), shop_rules.zone_shipping_for(place))


def update_settings(changes: dict, actor: User) -> dict:
    """Change some settings (stored form; zones one by one), with an audit entry; answers every setting.
    :raise ValidationFailed: a dispatch PIN the directory does not know."""
    if "dispatch_pin" in changes and pin_directory.lookup(changes["dispatch_pin"]) is None:
        raise ValidationFailed({"dispatchPin": ["The dispatch PIN must be a PIN in the directory."]})
    before = settings()
    after = {**before, **changes}
    if "zones" in changes:
        # A zone is replaced whole; a rule sent without a fee charges the flat fee there.
        after["zones"] = {**before["zones"], **{name: {"shipping_paise": None, **rule}
                                                for name, rule in changes["zones"].items()}}
    changed = [key for key in DEFAULTS if after[key] != before[key]]
    if changed:
        for key in changed:
            _upsert(key, after[key])
        audit.record(actor, "settings.update", "shop_settings", "shop", {k: before[k] for k in changed},
                     {k: after[k] for k in changed})
        db.session.commit()
    return after


def _upsert(key: str, value) -> None:
    """One statement per key, so two administrators saving at once never collide on the primary key."""
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(ShopSetting).values(key=key, value=value, updated_at=utcnow())
    db.session.execute(statement.on_conflict_do_update(
        index_elements=[ShopSetting.key],
        set_={"value": statement.excluded.value, "updated_at": statement.excluded.updated_at}))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def dates_text(earliest: date, latest: date) -> str:
    """'on Thu 27 Nov', or 'between Thu 27 Nov and Sat 29 Nov'."""
    return f"on {_day(earliest)}" if earliest == latest else f"between {_day(earliest)} and {_day(latest)}"


def _message(place: Place, earliest: date, latest: date, cod: bool, shop_rules: Rules) -> str:
    """'Delivery to Bengaluru between Thu 27 Nov and Sat 29 Nov. Cash on delivery available up to ₹5,000.'"""
    when = dates_text(earliest, latest)
    text = f"Delivery to {place.city} {when}."
    if not cod:
        return text + " Cash on delivery is not available for this PIN."
    text += f" Cash on delivery available up to {rupees_text(shop_rules.cod_limit_paise)}"
    if shop_rules.cod_fee_paise:
        text += f" (fee {rupees_text(shop_rules.cod_fee_paise)})"
    return text + "."


def _day(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b}"
