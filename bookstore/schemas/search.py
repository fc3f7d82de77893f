"""Shapes of the shop's search synonyms (PUT and GET /api/admin/search-synonyms)."""
from marshmallow import fields, validate

from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.fields import InputSchema
from bookstore.services.search_synonyms import MAX_GROUPS, MAX_PHRASES


class SynonymGroupsSchema(InputSchema):
    groups = fields.List(
        fields.List(fields.String(validate=validate.Length(min=1, max=80)),
                    validate=validate.Length(min=2, max=MAX_PHRASES,
                                             error=f"A group holds 2 to {MAX_PHRASES} words or phrases.")),
        required=True, validate=validate.Length(max=MAX_GROUPS, error=f"At most {MAX_GROUPS} groups."),
        metadata={"description": "Every group of words and phrases a search treats as one, e.g. "
                                 "[\"class 10\", \"class x\", \"tenth\"]; stored as search words (lower case, "
                                 "punctuation dropped; c++, c#, f# and .net as cplusplus, csharp, fsharp, dotnet)."})


class SynonymGroupsReplySchema(SuccessSchema):
    groups = fields.List(fields.List(fields.String()))
