"""Shapes live in `bookstore/schemas/`: API modules hold routes, and every paged list reads one page query."""
import ast
from pathlib import Path

from bookstore.schemas.common import MAX_LIMIT, PageQuerySchema

API = Path(__file__).resolve().parent.parent / "bookstore" / "api"


def test_no_api_module_defines_a_class():
    """Routes are adapters: a schema defined in `bookstore/api/` belongs in `bookstore/schemas/`."""
    classes = sorted(f"{path.relative_to(API.parent)}: {node.name}" for path in API.rglob("*.py")
                     for node in ast.parse(path.read_text()).body if isinstance(node, ast.ClassDef))
    assert classes == []


def test_the_page_query_follows_decisions_section_2():
    """`page` from 1, `limit` 12 by default, above 100 clamped to 100; page 0 and limit 0 are refused."""
    assert PageQuerySchema().load({}) == {"page": 1, "limit": 12}
    assert MAX_LIMIT == 100 and PageQuerySchema().load({"page": "3", "limit": "500"}) == {"page": 3, "limit": 100}
    assert set(PageQuerySchema().validate({"page": "0", "limit": "0"})) == {"page", "limit"}
