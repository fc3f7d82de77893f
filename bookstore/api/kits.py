"""Kits for shoppers: the kits on sale (or one exam's) and one kit's page."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.kit import KitListQuerySchema, KitListReplySchema, KitReplySchema
from bookstore.services import kits

blp = Blueprint("kits", __name__, url_prefix="/api/kits", description="Kits")


@blp.route("", methods=["GET"])
@blp.arguments(KitListQuerySchema, location="query")
@blp.response(200, KitListReplySchema)
def list_kits(query):
    """Every kit on sale by name, with its books, price, saving and stock; `exam` keeps one exam's."""
    return {"kits": kits.for_sale(query.get("exam"))}


@blp.route("/<string:slug>", methods=["GET"])
@blp.response(200, KitReplySchema)
def get_kit(slug):
    """One kit on sale; 404 for an unknown or archived one."""
    return {"kit": kits.get_kit(slug)}
