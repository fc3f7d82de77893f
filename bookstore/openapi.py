"""What /api/openapi.json says beyond each view's schemas: the error envelope and the bearer token.

tests/api/test_openapi_conformance.py holds the API to the document with schemathesis.
"""
from apispec import BasePlugin
from flask import Flask
from marshmallow import EXCLUDE, Schema, fields

BEARER = "bearerAuth"
SECURITY_SCHEME = {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                   "description": "The token that /api/auth/login and /api/auth/register answer with."}


class ErrorSchema(Schema):
    """Every error (product §1.2): `errors` per field for validation; some refusals carry more facts
    (a 409's current prices or book), hence other properties are allowed."""

    class Meta:
        unknown = EXCLUDE  # documented without additionalProperties: false

    success = fields.Boolean(required=True, metadata={"enum": [False]})
    message = fields.String(required=True, metadata={"description": "what the screens show"})
    errors = fields.Dict(keys=fields.String(), metadata={"description": "messages by field"})


def _nothing():
    """A view to decorate, to learn what a decorator's wrapper looks like."""


def _wrappers(view):
    """The view and every function it wraps (functools.wraps leaves __wrapped__)."""
    while view is not None:
        yield view
        view = getattr(view, "__wrapped__", None)


URI_TOO_LONG = {"description": "The path and query are longer than 4,096 characters.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


class DocumentedRefusals(BasePlugin):
    """What every operation or schema may refuse beyond its fields: the 414 of an over-long address
    (request_input.MAX_TARGET_CHARS), and the empty body of a partial PUT (schemas.fields.PartialUpdate)."""

    def init_spec(self, spec):
        super().init_spec(spec)
        spec.components.response("URI_TOO_LONG", URI_TOO_LONG)

    def schema_helper(self, name, definition, **kwargs):
        schema = kwargs.get("schema")
        if getattr(schema, "refuses_empty_body", False):
            return {"minProperties": 1}
        return None

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            operation.setdefault("responses", {})["414"] = {"$ref": "#/components/responses/URI_TOO_LONG"}


class BearerSecurity(BasePlugin):
    """Marks each operation with the token it needs: required for admin routes and `login_required`
    views, optional (guest or shopper) for `optional_login` views, none elsewhere."""

    def __init__(self, app: Flask):
        super().__init__()
        self.app = app

    def init_spec(self, spec):
        super().init_spec(spec)
        spec.components.security_scheme(BEARER, SECURITY_SCHEME)

    def operation_helper(self, path=None, operations=None, **kwargs):
        from bookstore.security import is_admin_route, login_required, optional_login
        rule = kwargs.get("rule")
        view = self.app.view_functions.get(rule.endpoint) if rule is not None else None
        if view is None or not operations:
            return
        # functools.wraps copies names, so the decorators are recognised by their wrappers' code.
        codes = {getattr(function, "__code__", None) for function in _wrappers(view)}
        if is_admin_route(rule.rule, view) or login_required(_nothing).__code__ in codes:
            security = [{BEARER: []}]
        elif optional_login(_nothing).__code__ in codes:
            security = [{}, {BEARER: []}]
        else:
            return
        for operation in operations.values():
            operation.setdefault("security", security)
