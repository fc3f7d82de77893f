"""Newsletter sign-up (double opt-in) and unsubscribing, in one click from the mail or from the link's screen."""
from flask import current_app

from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.contact import NewsletterSchema, OneClickQuerySchema, TokenSchema, UnsubscribeSchema
from bookstore.services import newsletter

blp = Blueprint("newsletter", __name__, url_prefix="/api/newsletter", description="Newsletter")


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(NewsletterSchema)
@blp.response(202, SuccessSchema)
def subscribe(data):
    """Record a sign-up; the address counts once confirmed from the e-mailed link."""
    newsletter.subscribe(data["email"])
    return {"message": "Almost done: please confirm the subscription from the e-mail we sent you."}


@blp.route("/confirm", methods=["POST"])
@blp.arguments(TokenSchema)
@blp.response(200, SuccessSchema)
def confirm(data):
    """Confirm a subscription from the e-mailed link's token."""
    newsletter.confirm(data["token"])
    return {"message": "Thank you! Your subscription is confirmed."}


@blp.route("/unsubscribe", methods=["POST"])
@blp.arguments(UnsubscribeSchema)
@blp.response(200, SuccessSchema)
def unsubscribe(data):
    """Unsubscribe with the signed token of a newsletter's link (the confirmation screen's button); no sign-in."""
    return _unsubscribe(data["token"])


# The List-Unsubscribe URL itself: mail programs POST to the address the mail names (RFC 8058), which is also
# the page a shopper's GET opens (the client's confirmation screen).
one_click_blp = Blueprint("newsletter_one_click", __name__, url_prefix="/newsletter",
                          description="One-click newsletter unsubscribe (RFC 8058)")


@one_click_blp.route("/unsubscribe", methods=["POST"])
@one_click_blp.arguments(OneClickQuerySchema, location="query")
@one_click_blp.response(200, SuccessSchema)
def one_click_unsubscribe(query):
    """Unsubscribe the link's subscriber (body: List-Unsubscribe=One-Click); 400 for a token the shop did not sign."""
    return _unsubscribe(query["token"])


def _unsubscribe(token: str) -> dict:
    """Both ways to unsubscribe (the screen's button, a mail program's one click) end here."""
    newsletter.unsubscribe(token)
    return {"message": "You are unsubscribed. We will send you no more newsletters."}
