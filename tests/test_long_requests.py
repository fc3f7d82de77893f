"""Over-long addresses through the real gunicorn (issue 12): /api answers them in JSON, never gunicorn's HTML 414.

gunicorn.conf.py lets request lines of up to 8,190 bytes through (its default, 4,094, answered a 5,000-character
search with an HTML page); the app refuses a path and query over 4,096 characters with a 414 in the envelope,
and a search over 200 characters with a 422.
"""
import http.client
import json

import pytest

from tests.server import Gunicorn


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    with Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn-long"), workers=1, threads=2) as running:
        yield running


def get(server: Gunicorn, target: str) -> tuple[int, str, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", target, headers={"Accept": "application/json"})
        response = connection.getresponse()
        raw = response.read()
        return response.status, response.getheader("Content-Type", ""), json.loads(raw) if raw else None
    except ValueError:
        return response.status, response.getheader("Content-Type", ""), {"raw": raw[:200]}
    finally:
        connection.close()


@pytest.mark.parametrize("length", [5_000, 8_000])
def test_a_search_of_thousands_of_characters_is_a_json_414(server, length):
    """The issue's 5,000-character search (and one just under gunicorn's own limit) gets the envelope."""
    status, content_type, body = get(server, "/api/books?search=" + "a" * length)
    assert (status, content_type) == (414, "application/json"), body
    assert body == {"success": False, "message": "The address of this request is too long."}
    assert not server.errors_logged()


def test_a_long_search_under_the_address_limit_is_a_422(server):
    """A search of 201 characters is a JSON 422 on search, naming the 200-character limit."""
    status, content_type, body = get(server, "/api/books?search=" + "a" * 201)
    assert (status, content_type) == (422, "application/json")
    assert body["success"] is False and body["message"] == "Search is limited to 200 characters."
    assert list(body["errors"]) == ["search"]


def test_a_search_of_200_characters_is_answered(server):
    """A search of exactly 200 characters is answered."""
    status, _content_type, body = get(server, "/api/books?search=" + "a" * 200)
    assert status == 200 and body["success"] is True
