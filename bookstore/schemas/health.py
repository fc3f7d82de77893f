"""Liveness and readiness replies for load balancers and the PaaS router."""
from marshmallow import Schema, fields, validate

_STATE = validate.OneOf(["ok", "unavailable"])


class HealthSchema(Schema):
    """Not the envelope: load balancers read `status`."""

    status = fields.String(required=True, validate=validate.OneOf(["ok", "error"]))
    database = fields.String(required=True, validate=_STATE)
    jobs = fields.String(validate=_STATE, metadata={"description": "readiness only"})
    reason = fields.String(metadata={"description": "what is wrong, when something is"})
