"""The 18 categories with live book counts."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.book import CategoryListReplySchema
from bookstore.services import catalogue

blp = Blueprint("categories", __name__, url_prefix="/api/categories", description="Categories")


@blp.route("", methods=["GET"])
@blp.response(200, CategoryListReplySchema)
def list_categories():
    """Every category in the shop's order (product §3.1), with its number of books."""
    return {"categories": catalogue.categories_with_counts()}
