"""The cart: a signed-in shopper's saved cart, and the price check (lines, coupon, shipping and total as the
server would charge them now)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.cart import CartInputSchema, CartReplySchema
from bookstore.schemas.order import QuoteInputSchema, QuoteReplySchema
from bookstore.security import current_user, login_required, optional_login
from bookstore.services import checkout, server_cart

blp = Blueprint("cart", __name__, url_prefix="/api/cart", description="Cart")


@blp.route("/quote", methods=["POST"])
@optional_login
@blp.arguments(QuoteInputSchema)
@blp.response(200, QuoteReplySchema)
def quote(data):
    """Price a cart (and a coupon code, with the reason it does not apply); placing the order checks again."""
    return checkout.quote(data, current_user()).as_reply()


@blp.route("", methods=["GET"])
@login_required
@blp.response(200, CartReplySchema)
def get_cart():
    """The signed-in shopper's saved cart (books no longer sold are left out)."""
    return {"items": server_cart.lines(current_user())}


@blp.route("", methods=["PUT"])
@login_required
@blp.arguments(CartInputSchema)
@blp.response(200, CartReplySchema)
def put_cart(data):
    """Replace the saved cart with these lines (422 and nothing changed for unknown books or too many copies)."""
    return {"message": "Cart saved", "items": server_cart.replace(current_user(), data["items"])}
