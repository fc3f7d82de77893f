"""Fixtures the API tests share; a test module's own fixture of the same name overrides one here."""
import pytest

from tests.conftest import Headers


@pytest.fixture
def admin(auth) -> Headers:
    """An administrator's headers; `.id` is the admin's user id."""
    return auth.admin_with_id("admin@example.in")
