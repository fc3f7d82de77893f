"""The address book: saved addresses with checkout's checks, at most 10, one default, private to each account."""
import pytest

from bookstore.extensions import db
from bookstore.models import SavedAddress
from tests.factories import count

HOME = {"firstName": "Asha", "lastName": "Verma", "phone": "9876543210", "address": "12 MG Road",
        "landmark": "Near the park", "city": "Bengaluru", "state": "Karnataka", "zipCode": "560001",
        "addressType": "home"}


def _add(client, headers, **changes):
    return client.post("/api/addresses", headers=headers, json={**HOME, **changes})


def _defaults(client, headers):
    return [a["_id"] for a in client.get("/api/addresses", headers=headers).get_json()["addresses"] if a["isDefault"]]


def test_the_address_book_needs_a_token(client):
    """Every address call needs a signed-in shopper (401 otherwise)."""
    for response in (client.get("/api/addresses"), client.post("/api/addresses", json=HOME),
                     client.put("/api/addresses/1", json=HOME), client.delete("/api/addresses/1")):
        assert response.status_code == 401 and response.get_json()["success"] is False


def test_the_first_address_is_the_default_and_is_listed(client, auth):
    """A saved address comes back with its fields (state as its official name, country India); the first is the
    default, a second is not."""
    headers = auth.customer()
    first = _add(client, headers, state="karnataka", phone="+91 98765 43210")
    assert first.status_code == 201
    saved = first.get_json()["address"]
    assert saved["isDefault"] is True and saved["state"] == "Karnataka" and saved["country"] == "India"
    assert saved["phone"] == "9876543210" and first.get_json()["limit"] == 10
    second = _add(client, headers, city="Mysuru", zipCode="570001").get_json()["address"]
    assert second["isDefault"] is False
    assert _defaults(client, headers) == [saved["_id"]]


@pytest.mark.parametrize("changes, field", [
    ({"phone": "12345"}, "phone"), ({"zipCode": "012345"}, "zipCode"), ({"zipCode": "5600"}, "zipCode"),
    ({"state": "Atlantis"}, "state"), ({"firstName": "  "}, "firstName"), ({"city": ""}, "city"),
    ({"address": "x" * 301}, "address"), ({"country": "Nepal"}, "country"), ({"addressType": "castle"}, "addressType"),
])
def test_bad_addresses_are_refused_as_at_checkout(client, auth, changes, field):
    """The same checks as checkout's address: Indian mobile, PIN, state, required text; 422 saves nothing."""
    headers = auth.customer()
    response = _add(client, headers, **changes)
    assert response.status_code == 422 and field in response.get_json()["errors"]
    assert count(SavedAddress) == 0


def test_an_eleventh_address_is_refused(client, auth):
    """Ten addresses fit; the eleventh is 409 with a clear message and is not saved."""
    headers = auth.customer()
    for number in range(10):
        assert _add(client, headers, address=f"{number} MG Road").status_code == 201
    refused = _add(client, headers, address="11 MG Road")
    assert refused.status_code == 409 and "up to 10 addresses" in refused.get_json()["message"]
    assert count(SavedAddress) == 10


def test_one_default_moves_with_put(client, auth):
    """PUT isDefault true makes an address the default and the old one stops being it; false leaves none."""
    headers = auth.customer()
    first = _add(client, headers).get_json()["address"]["_id"]
    second = _add(client, headers, isDefault=True).get_json()["address"]["_id"]
    assert _defaults(client, headers) == [second]
    moved = client.put(f"/api/addresses/{first}", headers=headers, json={"isDefault": True})
    assert moved.status_code == 200 and moved.get_json()["addresses"][0]["_id"] == first
    assert _defaults(client, headers) == [first]
    client.put(f"/api/addresses/{first}", headers=headers, json={"isDefault": False})
    assert _defaults(client, headers) == []


def test_put_changes_fields_with_the_same_checks(client, auth):
    """A PUT changes only the fields sent and refuses bad ones (422, nothing changed)."""
    headers = auth.customer()
    address = _add(client, headers).get_json()["address"]["_id"]
    changed = client.put(f"/api/addresses/{address}", headers=headers, json={"city": "Mysuru", "zipCode": "570001"})
    assert changed.status_code == 200 and changed.get_json()["address"]["city"] == "Mysuru"
    assert changed.get_json()["address"]["firstName"] == "Asha"
    refused = client.put(f"/api/addresses/{address}", headers=headers, json={"zipCode": "000000"})
    assert refused.status_code == 422
    assert db.session.scalar(db.select(SavedAddress.zip_code)) == "570001"


def test_deleting_the_default_makes_another_the_default(client, auth):
    """Deleting the default makes the most recently changed other address the default; deleting the last leaves
    none."""
    headers = auth.customer()
    first = _add(client, headers).get_json()["address"]["_id"]
    second = _add(client, headers, city="Mysuru", zipCode="570001").get_json()["address"]["_id"]
    deleted = client.delete(f"/api/addresses/{first}", headers=headers)
    assert deleted.status_code == 200
    assert [a["_id"] for a in deleted.get_json()["addresses"]] == [second] and _defaults(client, headers) == [second]
    assert client.delete(f"/api/addresses/{second}", headers=headers).get_json()["addresses"] == []
    assert count(SavedAddress) == 0


def test_another_accounts_address_is_not_found(client, auth):
    """An address of another account answers 404 to reading it through PUT and to DELETE, and stays as it was."""
    mine = auth.customer("one@example.in")
    theirs = auth.customer("two@example.in")
    address = _add(client, theirs).get_json()["address"]["_id"]
    for response in (client.put(f"/api/addresses/{address}", headers=mine, json={"city": "Pune"}),
                     client.delete(f"/api/addresses/{address}", headers=mine),
                     client.delete("/api/addresses/abc", headers=mine),
                     client.put("/api/addresses/999999", headers=mine, json={"city": "Pune"})):
        assert response.status_code == 404 and response.get_json()["message"] == "Address not found."
    assert client.get("/api/addresses", headers=mine).get_json()["addresses"] == []
    assert db.session.scalar(db.select(SavedAddress.city)) == "Bengaluru"
