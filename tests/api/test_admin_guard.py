"""Every administrator route refuses guests (401) and shoppers (403): secure by default."""
import re

ADMIN_PREFIXES = ("/api/admin",)
# Book writes are administrator-only too (decisions §3); they join this walk as they are added.
ADMIN_WRITES_ELSEWHERE = {("/api/books", "POST"), ("/api/books/<book_id>", "PUT"), ("/api/books/<book_id>", "DELETE")}


def _admin_routes(app):
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if rule.rule.startswith(ADMIN_PREFIXES) or (re.sub(r"<[^>]*:", "<", rule.rule), method) in ADMIN_WRITES_ELSEWHERE:
                yield re.sub(r"<[^>]+>", "1", rule.rule), method


def test_the_walk_finds_admin_routes(app):
    """Guard against a walk that silently checks nothing."""
    assert ("/api/admin/ping", "GET") in set(_admin_routes(app))


def test_no_admin_route_is_reachable_without_the_admin_role(app, client, auth):
    shopper = auth.customer()
    admin = auth.admin()
    for path, method in _admin_routes(app):
        guest = client.open(path, method=method, json={})
        assert guest.status_code == 401, (method, path)
        assert guest.get_json()["success"] is False
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
