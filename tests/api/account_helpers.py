"""Kept so that older imports keep working: the account helpers live in tests/helpers.py."""
from tests.helpers import (REGISTRATION, age_links, bearer, link_token, register, unused_links,  # noqa: F401
                           user_row)
