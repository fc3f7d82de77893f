"""Field types shared by the schemas: ids, money, trimmed text, UTC times, Indian phone numbers."""
import re
from datetime import timezone
from decimal import Decimal

from marshmallow import EXCLUDE, Schema, ValidationError, fields, pre_load, validate, validates_schema

from bookstore import money
from bookstore.services.india import canonical_state

MAX_RUPEES = Decimal("1000000")  # ₹10 lakh: far above any book, far below integer overflow


class InputSchema(Schema):
    """Request bodies and queries: fields a client may not set (role, isPaid...) are dropped."""

    class Meta:
        unknown = EXCLUDE

    @pre_load(pass_collection=True)
    def refuse_nul_characters(self, data, **_kwargs):
        """No text field may hold NUL: PostgreSQL cannot store it and no person types it."""
        fields_with_nul = [name for name, value in _items(data) if _has_nul(value)]
        if fields_with_nul:
            raise ValidationError({name: ["Must not contain NUL characters."] for name in fields_with_nul})
        return data


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _items(data):
    """Top-level (name, value) pairs of a JSON object or a query's MultiDict."""
    if not hasattr(data, "items"):
        return []
    if hasattr(data, "getlist"):
        # A query string may repeat a parameter; check every value.
        return [(name, value) for name in data.keys() for value in data.getlist(name)]
    return list(data.items())


class IdString(fields.Field):
    """Integer primary keys leave the API as strings (`_id`)."""

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else str(value)


class IdInput(fields.Field):
    """An `_id` sent by a client: a string, or a bare number from older clients; kept as text."""

    default_error_messages = {"invalid": "Must be an id."}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.make_error("invalid")
        text = str(value).strip()
        if not text or len(text) > 40:
            raise self.make_error("invalid")
        return text


class Rupees(fields.Field):
    """Integer paise inside, rupees with at most 2 decimals outside; never through float maths."""

    default_error_messages = {
        "invalid": "Must be an amount in rupees, like 499 or 499.50.",
        "range": "Must be between 0 and 10,00,000 rupees.",
    }

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else money.to_rupees(value)

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            amount = money.parse_rupees(value)
        except ValueError:
            raise self.make_error("invalid") from None
        if amount < 0 or amount > MAX_RUPEES:
            raise self.make_error("range")
        return money.to_paise(amount)


# Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069): in a name they reorder what follows on a
# bill, a label or a screen ("\u202eKumar" prints backwards). No one types them; they are dropped on input.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


class Trimmed(fields.String):
    """A string with bidi controls dropped and surrounding white space removed; `required` also refuses blank
    text."""

    def __init__(self, *, max_length: int, min_length: int = 0, blank_message: str | None = None, **kwargs):
        self.blank_message = blank_message
        validators = [validate.Length(max=max_length, error=f"Must be at most {max_length} characters.")]
        if min_length > 1:
            validators.append(validate.Length(min=min_length, error=f"Must be at least {min_length} characters."))
        super().__init__(validate=validators, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs).translate(_BIDI_CONTROLS).strip()
        if not text and self.required:
            raise ValidationError(self.blank_message or self.error_messages["required"])
        return text


# A GSTIN: 2-digit state code, the holder's PAN (5 letters, 4 digits, a letter), the entity number, Z, a check character.
GSTIN_PATTERN = r"^[0-3][0-9][A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$"
GSTIN_MESSAGE = "GSTIN must be 15 characters like 29ABCDE1234F1Z5."


class Gstin(fields.String):
    """An Indian GSTIN, upper-cased with spaces removed; "" (not given) passes when `allow_blank`."""

    def __init__(self, *, allow_blank: bool = True, **kwargs):
        self.allow_blank = allow_blank
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = "".join(super()._deserialize(value, attr, data, **kwargs).split()).upper()
        if not text and self.allow_blank:
            return ""
        if not re.match(GSTIN_PATTERN, text):
            raise ValidationError(GSTIN_MESSAGE)
        return text


class UtcInstant(fields.AwareDateTime):
    """A date and time with its offset, loaded as the same instant in UTC (SQLite keeps only the clock)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).astimezone(timezone.utc)


class UtcDateTime(fields.DateTime):
    """SQLite hands back naive datetimes; every stored time is UTC, so say so."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return super()._serialize(value, attr, obj, **kwargs)


_MOBILE = re.compile(r"^(?:\+?91)?[6-9]\d{9}$")


def normalise_mobile(raw: str) -> str | None:
    """'+91 98765-43210' -> '9876543210'; None when it is not an Indian mobile number."""
    compact = re.sub(r"[\s\-()]", "", raw)
    if compact.startswith("0") and len(compact) == 11:
        compact = compact[1:]
    return compact[-10:] if _MOBILE.match(compact) else None


class IndianMobile(fields.String):
    """A 10-digit Indian mobile number, optionally written with +91, spaces or dashes."""

    default_error_messages = {"invalid_mobile": "Enter a 10-digit Indian mobile number."}

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs).strip()
        if not text:
            if self.required:
                raise self.make_error("required")
            return None
        number = normalise_mobile(text)
        if number is None:
            raise self.make_error("invalid_mobile")
        return number


class IndianState(Trimmed):
    """A state or union territory of India in any case or spelling the shop knows ('tamil nadu', 'Orissa'),
    loaded as its official name ('Tamil Nadu', 'Odisha'): services and orders only see official names."""

    default_error_messages = {"unknown_state": "Choose a state or union territory of India."}

    MAX_LENGTH = 60

    def __init__(self, **kwargs):
        super().__init__(max_length=self.MAX_LENGTH, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > self.MAX_LENGTH:
            return text  # the length validator refuses it in its own words
        name = canonical_state(text)
        if name is None:
            raise self.make_error("unknown_state")
        return name


class Email(fields.Email):
    """An e-mail address, trimmed and lower-cased so uniqueness is case-insensitive."""

    def __init__(self, **kwargs):
        messages = {"invalid": "Enter a valid e-mail address.", **kwargs.pop("error_messages", {})}
        super().__init__(validate=validate.Length(max=254, error="Must be at most 254 characters."),
                         error_messages=messages, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = value.strip()
            if not value and self.required:
                raise self.make_error("required")
        return super()._deserialize(value, attr, data, **kwargs).lower()


# A PIN code as typed: 6 digits, the first not 0, spaces anywhere ('560 001'); the document's pattern.
PIN_INPUT_PATTERN = r"^\s*[1-9](\s*[0-9]){5}\s*$"
NOTHING_TO_CHANGE = "Send at least one field to change."


class PartialUpdate:
    """A PUT whose fields left out keep their values: a body with no field the schema takes changes nothing,
    and is refused rather than answered 200 (openapi.py documents it as minProperties: 1)."""

    refuses_empty_body = True

    @validates_schema
    def something_to_change(self, data, **_kwargs):
        if not data:
            raise ValidationError(NOTHING_TO_CHANGE, "body")


def with_pin_pattern(kwargs: dict) -> dict:
    """Field arguments with the PIN pattern added to the document's description of the field."""
    return {**kwargs, "metadata": {"pattern": PIN_INPUT_PATTERN, **kwargs.get("metadata", {})}}


def required_text(label: str, max_length: int, **kwargs) -> Trimmed:
    """A required, trimmed text field whose missing or blank value reads '<label> is required.'"""
    message = f"{label} is required."
    return Trimmed(required=True, max_length=max_length, error_messages=required(message), blank_message=message,
                   **kwargs)


def required(message: str) -> dict:
    """Error messages for a required field, in the words the screens show (product §1.2)."""
    return {"required": message, "null": message}


class WholeNumber(fields.Integer):
    """A whole number that may arrive as text ("3", from a form), never as a fraction (2.9 would be
    stored as 2) nor as a boolean (JSON true is 1 to Python)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise self.make_error("invalid")
        if isinstance(value, str) and not value.strip().lstrip("-").isdigit():
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)
