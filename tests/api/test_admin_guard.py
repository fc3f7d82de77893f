"""Every administrator route refuses guests (401) and shoppers (403): secure by default."""
import re

from bookstore.security import is_admin_route

# Administrator routes outside /api/admin (product §10.1: every book write; the contact inbox).
# Listed here so that a view losing its admin_only mark fails the walk below.
ADMIN_ROUTES_ELSEWHERE = {
    ("/api/books", "POST"), ("/api/books/<book_id>", "PUT"), ("/api/books/<book_id>", "DELETE"),
    ("/api/books/<book_id>/restore", "POST"),
    ("/api/contact", "GET"), ("/api/contact/<message_id>/status", "PUT"),
}
PUBLIC_NEIGHBOURS = {("/api/books", "GET"), ("/api/books/<book_id>", "GET"), ("/api/contact", "POST")}


def _routes(app):
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield re.sub(r"<[^>]*:", "<", rule.rule), method, app.view_functions[rule.endpoint]


def _admin_routes(app):
    """Every (path, method) the guard protects, found by the guard's own rule, with ids filled in."""
    for rule, method, view in _routes(app):
        if is_admin_route(rule, view):
            yield re.sub(r"<[^>]+>", "1", rule), method


def test_the_walk_finds_admin_routes(app):
    """Guard against a walk that silently checks nothing, and against a book write losing its mark."""
    marked = {(rule, method) for rule, method, view in _routes(app) if is_admin_route(rule, view)}
    assert ("/api/admin/ping", "GET") in marked
    assert ("/api/admin/orders/export.csv", "GET") in marked
    assert ADMIN_ROUTES_ELSEWHERE <= marked
    assert not PUBLIC_NEIGHBOURS & marked


def test_no_admin_route_is_reachable_without_the_admin_role(app, client, auth):
    """Every admin route refuses guests, bad tokens and shoppers (401/403 in the envelope) and only administrators
    get through."""
    shopper = auth.customer()
    admin = auth.admin()
    for path, method in _admin_routes(app):
        guest = client.open(path, method=method, json={})
        assert guest.status_code == 401, (method, path)
        assert guest.get_json()["success"] is False
        bad_token = client.open(path, method=method, json={}, headers={"Authorization": "Bearer not-a-token"})
        assert bad_token.status_code == 401, (method, path)
        as_shopper = client.open(path, method=method, json={}, headers=shopper)
        assert as_shopper.status_code == 403, (method, path)
        assert as_shopper.get_json()["message"] == "Administrator access required."
        as_admin = client.open(path, method=method, json={}, headers=admin)
        assert as_admin.status_code not in (401, 403), (method, path)


def test_a_demoted_admin_loses_access_at_once(client, auth, app):
    """The role is read from the database on each call, not trusted from the token."""
    from bookstore.extensions import db
    from bookstore.models import User
    headers = auth.admin()
    assert client.get("/api/admin/ping", headers=headers).status_code == 200
    User.query.filter_by(role="admin").one().role = "customer"
    db.session.commit()
    assert client.get("/api/admin/ping", headers=headers).status_code == 403
