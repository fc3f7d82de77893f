"""India's PIN directory (issue 14): every PIN in a state its postal circle covers, with the city shoppers
know it by (a city's localities are named after the city; towns of their own keep their names)."""
import pytest

from bookstore.services import pin_directory


@pytest.mark.parametrize("pin, city, district, state", [
    ("799001", "Agartala", "West Tripura", "Tripura"),   # the package files it under Telangana's Nirmal
    ("110001", "Delhi", "New Delhi", "Delhi"),
    ("400001", "Mumbai", "Mumbai", "Maharashtra"),
    ("560001", "Bengaluru", "Bengaluru Urban", "Karnataka"),
    ("781001", "Guwahati", "Kamrup Metro", "Assam"),
    ("190001", "Srinagar", "Srinagar", "Jammu and Kashmir"),
    ("744101", "Port Blair", "South Andamans", "Andaman and Nicobar Islands"),
    ("194101", "Leh", "Leh Ladakh", "Ladakh"),
    ("793001", "Shillong", "East Khasi Hills", "Meghalaya"),
    ("737101", "Gangtok", "East District", "Sikkim"),
    ("673310", "Mahe", "Mahe", "Puducherry"),            # an enclave in Kerala's circle, rightly
    ("334002", "Bikaner", "Bikaner", "Rajasthan"),       # the package files it under Chhattisgarh's Raipur
    ("211001", "Prayagraj", "Prayagraj", "Uttar Pradesh"),  # a head post office "HPO": the place is Prayagraj
])
def test_a_pin_names_its_city_district_and_state(client, pin, city, district, state):
    """A PIN answers the city, district and state it is really in, also where the package misfiles it."""
    response = client.get(f"/api/delivery/{pin}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["success"] is True
    assert (body["city"], body["district"], body["state"]) == (city, district, state)


def test_every_known_pin_is_in_a_state_its_postal_circle_covers():
    """No PIN of the directory is in a state its first two digits rule out, and every one has a state."""
    misfiled = []
    for pin in pin_directory.pins():
        place = pin_directory.lookup(pin)
        circle = pin_directory.POSTAL_CIRCLES.get(pin[:2])
        if not place.state or (circle is not None and place.state_key not in circle):
            misfiled.append((pin, place.state))
    assert misfiled == []


@pytest.mark.parametrize("pin, city", [
    ("411038", "Pune"),          # Kothrud's office
    ("380009", "Ahmedabad"),     # Navrangpura head office
    ("302017", "Jaipur"),        # Malviya Nagar
    ("682030", "Ernakulam"),     # Kakkanad
    ("751007", "Bhubaneswar"),   # Saheed Nagar
    ("226010", "Lucknow"),       # Gomti Nagar
])
def test_a_city_locality_is_named_after_its_city(pin, city):
    """A PIN of a locality inside a non-metro city is named after the city, not the locality's post office."""
    assert pin_directory.lookup(pin).city == city


@pytest.mark.parametrize("pin, city", [
    ("571604", "Saligrama"),     # Mysuru district, its own town (its office is geocoded onto Mysuru's)
    ("847223", "Benipatti"),     # Madhubani district, 25 km from Madhubani
    ("173204", "Kasauli"),       # Solan district
    ("333705", "Mukundgarh"),
])
def test_a_town_of_its_own_keeps_its_name(pin, city):
    """A town near a district's headquarters, with its own PIN series, keeps its own name."""
    assert pin_directory.lookup(pin).city == city
