"""Marshmallow schemas: the API's shapes (camelCase, `_id` strings, rupees) kept off the models."""
