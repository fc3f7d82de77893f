"""The signed-in shopper's address book (saved delivery addresses for checkout)."""
from bookstore.blueprint import Blueprint
from bookstore.models import MAX_ADDRESSES
from bookstore.schemas.address import AddressBookReplySchema, SavedAddressChangeSchema, SavedAddressInput
from bookstore.security import current_user, login_required
from bookstore.services import address_book

blp = Blueprint("addresses", __name__, url_prefix="/api/addresses", description="Address book")


def _reply(message: str | None = None, address=None) -> dict:
    reply = {"addresses": address_book.addresses(current_user()), "limit": MAX_ADDRESSES}
    if message:
        reply["message"] = message
    if address is not None:
        reply["address"] = address
    return reply


@blp.route("", methods=["GET"])
@login_required
@blp.response(200, AddressBookReplySchema)
def list_addresses():
    """The saved addresses, the default first."""
    return _reply()


@blp.route("", methods=["POST"])
@login_required
@blp.arguments(SavedAddressInput)
@blp.response(201, AddressBookReplySchema)
def add_address(data):
    """Save an address (409 when 10 are saved already); the first one becomes the default."""
    address = address_book.add(current_user(), data)
    return _reply("Address saved", address)


@blp.route("/<string:address_id>", methods=["PUT"])
@login_required
@blp.arguments(SavedAddressChangeSchema(partial=True))
@blp.response(200, AddressBookReplySchema)
def change_address(data, address_id):
    """Change an address's fields; {"isDefault": true} makes it the default."""
    address = address_book.change(current_user(), address_id, data)
    return _reply("Address updated", address)


@blp.route("/<string:address_id>", methods=["DELETE"])
@login_required
@blp.response(200, AddressBookReplySchema)
def delete_address(address_id):
    """Delete an address; deleting the default makes another one the default."""
    address_book.remove(current_user(), address_id)
    return _reply("Address deleted")
