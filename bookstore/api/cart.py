"""The cart's price check: lines, coupon, shipping and total as the server would charge them now."""
from flask_smorest import Blueprint

from bookstore.schemas.order import QuoteInputSchema, QuoteReplySchema
from bookstore.security import current_user, optional_login
from bookstore.services import checkout

blp = Blueprint("cart", __name__, url_prefix="/api/cart", description="Cart")


@blp.route("/quote", methods=["POST"])
@optional_login
@blp.arguments(QuoteInputSchema)
@blp.response(200, QuoteReplySchema)
def quote(data):
    """Price a cart (and a coupon code, with the reason it does not apply); placing the order checks again."""
    return checkout.quote(data, current_user()).as_reply()
