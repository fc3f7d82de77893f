"""The shop's search synonyms (guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.search import SynonymGroupsReplySchema, SynonymGroupsSchema
from bookstore.security import current_user
from bookstore.services import search_synonyms

blp = Blueprint("admin_search_synonyms", __name__, url_prefix="/api/admin/search-synonyms",
                description="Administration: search synonyms")


@blp.route("", methods=["GET"])
@blp.response(200, SynonymGroupsReplySchema)
def read_synonyms():
    """Every group of synonyms, as search words."""
    return {"groups": search_synonyms.groups()}


@blp.route("", methods=["PUT"])
@blp.arguments(SynonymGroupsSchema)
@blp.response(200, SynonymGroupsReplySchema)
def replace_synonyms(body):
    """Replace every group of synonyms with those sent. Audited."""
    return {"message": "Synonyms saved.", "groups": search_synonyms.replace(body["groups"], current_user())}
