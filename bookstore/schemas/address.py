"""The address book: a saved delivery address in (checkout's fields and checks), the addresses out."""
from marshmallow import fields

from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.fields import IdString, PartialUpdate
from bookstore.schemas.order import AddressFieldsInput, AddressFieldsSchema


class SavedAddressInput(AddressFieldsInput):
    """A new or changed address; isDefault true makes it the default (false on the default leaves none)."""

    isDefault = fields.Boolean(attribute="is_default", load_default=None, allow_none=True)


class SavedAddressSchema(AddressFieldsSchema):
    _id = IdString(attribute="id")
    isDefault = fields.Boolean(attribute="is_default")


class AddressBookReplySchema(SuccessSchema):
    address = fields.Nested(SavedAddressSchema, metadata={"description": "the address added or changed"})
    addresses = fields.List(fields.Nested(SavedAddressSchema), metadata={"description": "default first"})
    limit = fields.Integer(metadata={"description": "how many addresses an account may save"})


class SavedAddressChangeSchema(PartialUpdate, SavedAddressInput):
    """PUT /api/addresses/{id}: the fields to change (used partial: those not sent are kept)."""
