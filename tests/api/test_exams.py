"""Exams, subjects, medium and editions (issue 15): the exam list and pages, the catalogue's filters,
what a book reply says about them, and the admin form's fields."""
import pytest
from sqlalchemy import event

from bookstore.extensions import db
from bookstore.models import Book, Exam, ExamSubject
from tests.api.test_admin_books import form
from tests.factories import count


def exam(slug: str) -> Exam:
    return db.session.scalar(db.select(Exam).where(Exam.slug == slug))


def subject(exam_slug: str, slug: str) -> ExamSubject:
    return db.session.scalar(db.select(ExamSubject).join(Exam).where(Exam.slug == exam_slug, ExamSubject.slug == slug))


def ok(response) -> dict:
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    return body


def listed(client, **params) -> tuple[list[str], int]:
    body = ok(client.get("/api/books", query_string=params))
    assert body["pagination"]["total"] == body["totalBooks"]
    return [book["_id"] for book in body["books"]], body["totalBooks"]


def refused(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert body["success"] is False and body["message"]
    if field:
        assert field in body["errors"], body
    return body


def fresh(book: Book) -> Book:
    db.session.expire_all()
    return db.session.get(Book, book.id)


@pytest.fixture
def admin(auth):
    return auth.admin()


# ---------------------------------------------------------------- the exam list and pages

def test_exam_list_has_every_exam_with_subjects_in_order(client):
    """GET /api/exams lists the seeded exams in the shop's order, each with its group and subjects."""
    exams = ok(client.get("/api/exams"))["exams"]
    slugs = [item["slug"] for item in exams]
    assert slugs[:2] == ["jee-main", "jee-advanced"]
    for slug in ("neet-ug", "upsc-cse-prelims", "upsc-cse-mains", "ssc-cgl", "ssc-chsl", "ibps-po", "ibps-clerk",
                 "sbi-po", "sbi-clerk", "gate-cse", "gate-me", "cat", "clat", "cuet-ug", "ugc-net", "gre", "gmat",
                 "sat", "cbse-class-1", "cbse-class-12", "icse-class-10", "state-board-class-12"):
        assert slug in slugs
    assert len(slugs) == len(set(slugs)) == db.session.scalar(db.select(db.func.count()).select_from(Exam))
    jee = exams[0]
    assert set(jee) == {"_id", "slug", "name", "shortName", "group", "description", "popular", "bookCount", "subjects"}
    assert jee["group"] == "Engineering" and jee["popular"] is True and jee["bookCount"] == 0
    assert [s["slug"] for s in jee["subjects"]][:3] == ["physics", "chemistry", "mathematics"]
    assert next(item for item in exams if item["slug"] == "cbse-class-10")["group"] == "School: CBSE"


def test_popular_exams_only(client):
    """GET /api/exams?popular=true lists only the exams the home page shows, in order."""
    exams = ok(client.get("/api/exams", query_string={"popular": "true"}))["exams"]
    assert exams and all(item["popular"] for item in exams)
    assert [item["slug"] for item in exams][:2] == ["jee-main", "jee-advanced"]
    assert "cbse-class-10" in [item["slug"] for item in exams] and "gmat" not in [item["slug"] for item in exams]
    refused(client.get("/api/exams", query_string={"popular": "maybe"}), 422, "popular")


def test_exam_counts_are_visible_books_and_follow_changes(client, factories):
    """Book counts per exam and subject count visible books only, and change as soon as a book is tagged,
    untagged or archived (the remembered counts are never stale)."""
    physics = subject("jee-main", "physics")
    factories.book(exams=[exam("jee-main")], subjects=[physics])
    factories.book(exams=[exam("jee-main")], archived=True)

    def counts():
        exams = {item["slug"]: item for item in ok(client.get("/api/exams"))["exams"]}
        jee = exams["jee-main"]
        return jee["bookCount"], {s["slug"]: s["bookCount"] for s in jee["subjects"]}["physics"], exams["neet-ug"]["bookCount"]

    assert counts() == (1, 1, 0)
    third = factories.book(exams=[exam("jee-main"), exam("neet-ug")], subjects=[physics])
    assert counts() == (2, 2, 1)
    third.exams = [exam("neet-ug")]
    third.subjects = []
    db.session.commit()
    assert counts() == (1, 1, 1)
    third.archived = True
    db.session.commit()
    assert counts() == (1, 1, 0)


def test_exam_page_has_subjects_and_best_sellers(client, factories):
    """GET /api/exams/{slug} gives the exam, its subjects with counts and its visible best sellers by copies sold."""
    neet = exam("neet-ug")
    low = factories.book(title="Biology Low", exams=[neet], copies_sold=5)
    high = factories.book(title="Biology High", exams=[neet], subjects=[subject("neet-ug", "biology")], copies_sold=50)
    factories.book(title="Hidden", exams=[neet], copies_sold=500, archived=True)
    factories.book(title="Other exam", exams=[exam("jee-main")], copies_sold=900)
    body = ok(client.get("/api/exams/neet-ug"))
    assert body["exam"]["slug"] == "neet-ug" and body["exam"]["bookCount"] == 2
    assert {s["slug"]: s["bookCount"] for s in body["exam"]["subjects"]} == {"physics": 0, "chemistry": 0, "biology": 1}
    assert [book["_id"] for book in body["bestSellers"]] == [str(high.id), str(low.id)]


def test_exam_list_is_two_statements_once_counted(client, factories):
    """With its counts remembered, GET /api/exams reads the versions and the exams with their subjects: two
    statements whatever the catalogue's size."""
    factories.book(exams=[exam("jee-main")])
    assert client.get("/api/exams").status_code == 200
    statements = []

    def record(_connection, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        assert ok(client.get("/api/exams"))["exams"][0]["bookCount"] == 1
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    assert len(statements) == 2, statements


def test_unknown_exam_page_is_404(client):
    """An unknown exam slug answers 404 in the error envelope."""
    body = refused(client.get("/api/exams/no-such-exam"), 404)
    assert body["message"] == "Exam not found."


# ---------------------------------------------------------------- filters on /api/books

def test_exam_and_subject_filters(client, factories):
    """exam= keeps the exam's books; subject= narrows to a subject of it; a subject alone matches it in
    every exam; unknown slugs match nothing."""
    jee, neet = exam("jee-main"), exam("neet-ug")
    jee_physics = factories.book(exams=[jee], subjects=[subject("jee-main", "physics")])
    jee_maths = factories.book(exams=[jee], subjects=[subject("jee-main", "mathematics")])
    neet_physics = factories.book(exams=[neet], subjects=[subject("neet-ug", "physics")])
    factories.book()
    assert listed(client, exam="jee-main") == ([str(jee_physics.id), str(jee_maths.id)], 2)
    assert listed(client, exam="jee-main", subject="physics") == ([str(jee_physics.id)], 1)
    assert sorted(listed(client, subject="physics")[0]) == sorted([str(jee_physics.id), str(neet_physics.id)])
    assert listed(client, exam="no-such-exam") == ([], 0)
    assert listed(client, exam="jee-main", subject="biology") == ([], 0)


def test_medium_and_edition_filters(client, factories):
    """medium= keeps books of that medium (any letter case); edition= keeps books of that edition year."""
    hindi = factories.book(medium="hindi", edition_year=2026)
    bilingual = factories.book(medium="bilingual", edition_year=2025)
    english = factories.book(edition_year=2026)
    assert listed(client, medium="hindi") == ([str(hindi.id)], 1)
    assert listed(client, medium="Bilingual") == ([str(bilingual.id)], 1)
    assert listed(client, edition=2026) == ([str(hindi.id), str(english.id)], 2)
    assert listed(client, medium="english", edition=2026) == ([str(english.id)], 1)


@pytest.mark.parametrize("params, field", [
    ({"medium": "tamil"}, "medium"),
    ({"medium": ""}, "medium"),
    ({"edition": "twenty"}, "edition"),
    ({"edition": 1800}, "edition"),
    ({"exam": "e" * 61}, "exam"),
    ({"subject": "s" * 61}, "subject"),
])
def test_bad_filters_are_422(client, params, field):
    """A medium outside the list, an edition that is not a year, or over-long slugs are 422 with the field named."""
    refused(client.get("/api/books", query_string=params), 422, field)


def test_language_filter_finds_books_by_medium(client, factories):
    """A book whose admin typed "Hindi Medium" is found by language=Hindi and medium=hindi; language=English & Hindi
    finds bilingual books."""
    typed = factories.book(language="Hindi Medium")
    both = factories.book(language="English & Hindi")
    factories.book(language="English")
    assert typed.medium == "hindi" and both.medium == "bilingual"
    assert listed(client, language="Hindi") == ([str(typed.id)], 1)
    assert listed(client, medium="hindi") == ([str(typed.id)], 1)
    assert listed(client, language="english & hindi") == ([str(both.id)], 1)


def test_filtered_totals_follow_tag_and_medium_changes(client, factories):
    """A filtered total (remembered per process) changes at once when a book gains or loses the exam or its medium."""
    jee = exam("jee-main")
    first = factories.book(exams=[jee], medium="hindi")
    second = factories.book(medium="hindi")
    assert listed(client, exam="jee-main", medium="hindi")[1] == 1
    second.exams = [jee]
    db.session.commit()
    assert listed(client, exam="jee-main", medium="hindi")[1] == 2
    first.medium = "english"
    db.session.commit()
    assert listed(client, exam="jee-main", medium="hindi")[1] == 1
    second.exams = []
    db.session.commit()
    assert listed(client, exam="jee-main", medium="hindi")[1] == 0


# ---------------------------------------------------------------- what a book says

def test_book_reply_carries_exams_medium_and_editions(client, factories):
    """A book reply names its exams and subjects, medium, edition year and number; the older edition links to the
    newest visible book that replaces it, and stops when that one is archived."""
    older = factories.book(title="Physics 2025", edition_year=2025, edition_number=4, medium="bilingual",
                           exams=[exam("jee-main")], subjects=[subject("jee-main", "physics")])
    body = ok(client.get(f"/api/books/{older.id}"))["book"]
    assert body["medium"] == "bilingual" and body["editionYear"] == 2025 and body["editionNumber"] == 4
    assert body["exams"] == [{"_id": str(exam("jee-main").id), "slug": "jee-main", "name": "JEE Main",
                              "shortName": "JEE Main"}]
    assert body["subjects"][0]["slug"] == "physics" and body["subjects"][0]["exam"] == "jee-main"
    assert body["newerEdition"] is None and body["replaces"] is None
    newer = factories.book(title="Physics 2026", edition_year=2026, edition_number=5, replaces=older)
    body = ok(client.get(f"/api/books/{older.id}"))["book"]
    assert body["newerEdition"] == {"_id": str(newer.id), "title": "Physics 2026", "editionYear": 2026}
    listed_older = next(b for b in ok(client.get("/api/books"))["books"] if b["_id"] == str(older.id))
    assert "newerEdition" not in listed_older and "exams" not in listed_older  # lists answer the card
    assert ok(client.get(f"/api/books/{newer.id}"))["book"]["replaces"]["_id"] == str(older.id)
    newer.archived = True
    db.session.commit()
    assert ok(client.get(f"/api/books/{older.id}"))["book"]["newerEdition"] is None


def test_a_page_of_tagged_books_is_a_fixed_number_of_statements(client, factories):
    """A list page answers cards: no exams, subjects or editions are read, so the page is the same two statements
    (the page and its total) however many books carry them."""
    def statements_for_first_page() -> int:
        client.get("/api/books")
        seen = []

        def record(_connection, _cursor, statement, *_args):
            seen.append(statement)

        event.listen(db.engine, "before_cursor_execute", record)
        try:
            assert ok(client.get("/api/books"))["books"]
        finally:
            event.remove(db.engine, "before_cursor_execute", record)
        return len(seen)

    physics = subject("jee-main", "physics")
    older = factories.book(exams=[exam("jee-main")], subjects=[physics])
    factories.book(exams=[exam("jee-main"), exam("neet-ug")], subjects=[physics], replaces=older)
    few = statements_for_first_page()
    for _ in range(6):
        factories.book(exams=[exam("jee-main"), exam("cat")], subjects=[physics], replaces=older)
    assert statements_for_first_page() == few <= 2


# ---------------------------------------------------------------- the admin form

def test_admin_creates_a_book_with_medium_editions_and_exams(client, admin, factories):
    """The admin form's medium, edition year and number, exams, subjects and replaced edition are stored;
    a subject brings its exam along."""
    older = factories.book(title="Old edition")
    chemistry = subject("neet-ug", "chemistry")
    response = client.post("/api/books", headers=admin, json=form(
        medium="Hindi", editionYear=2026, editionNumber=3, examIds=[str(exam("jee-main").id)],
        subjectIds=[str(chemistry.id)], replacesId=str(older.id)))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()["book"]
    assert body["medium"] == "hindi" and body["editionYear"] == 2026 and body["editionNumber"] == 3
    assert [e["slug"] for e in body["exams"]] == ["jee-main", "neet-ug"]
    book = fresh(db.session.get(Book, int(body["_id"])))
    assert book.medium == "hindi" and book.replaces_id == older.id and [s.id for s in book.subjects] == [chemistry.id]
    assert ok(client.get(f"/api/books/{older.id}"))["book"]["newerEdition"]["_id"] == body["_id"]


@pytest.mark.parametrize("changes, field", [
    ({"examIds": ["999999"]}, "examIds"),
    ({"examIds": ["abc"]}, "examIds"),
    ({"examIds": "jee-main"}, "examIds"),
    ({"subjectIds": ["999999"]}, "subjectIds"),
    ({"replacesId": "999999"}, "replacesId"),
    ({"medium": "Hindi Medium"}, "medium"),
    ({"editionYear": 1850}, "editionYear"),
    ({"editionNumber": 0}, "editionNumber"),
    ({"editionNumber": "third"}, "editionNumber"),
])
def test_admin_form_refuses_unknown_or_bad_values(client, admin, changes, field):
    """Unknown exam, subject or edition ids and bad medium or edition values are 422 on that field; nothing is added."""
    refused(client.post("/api/books", headers=admin, json=form(**changes)), 422, field)
    assert count(Book) == 0


def test_admin_edit_changes_tags_and_medium(client, admin, factories):
    """Editing keeps fields not sent; examIds [] clears exams and their subjects; a language alone sets the medium;
    a book cannot replace itself."""
    book = factories.book(exams=[exam("jee-main")], subjects=[subject("jee-main", "physics")], edition_year=2025,
                          cover_key="covers/ab/abc.webp")
    response = client.put(f"/api/books/{book.id}", headers=admin, json={"language": "Hindi Medium"})
    assert response.status_code == 200, response.get_json()
    book = fresh(book)
    assert book.medium == "hindi" and book.edition_year == 2025 and [e.slug for e in book.exams] == ["jee-main"]
    response = client.put(f"/api/books/{book.id}", headers=admin, json={"examIds": [], "medium": "bilingual"})
    assert response.status_code == 200, response.get_json()
    book = fresh(book)
    assert book.exams == [] and book.subjects == [] and book.medium == "bilingual"
    refused(client.put(f"/api/books/{book.id}", headers=admin, json={"replacesId": str(book.id)}), 422, "replacesId")
    assert fresh(book).replaces_id is None


def test_deleting_an_older_edition_unlinks_the_newer(client, admin, factories):
    """Deleting a book a newer edition replaces deletes it (not archives) and the newer one names no edition."""
    older = factories.book()
    newer = factories.book(replaces=older)
    response = client.delete(f"/api/books/{older.id}", headers=admin)
    assert response.status_code == 200 and response.get_json()["archived"] is False
    assert fresh(newer).replaces_id is None and count(Book) == 1


def test_one_book_is_a_fixed_number_of_statements(client, factories):
    """A book's page reads the book with its category and the edition it replaces, then its exams, its
    subjects (with their exams) and its newer editions: the same few statements however many it has."""
    def statements_for(book_id) -> int:
        db.session.expunge_all()  # as a request starts: nothing already loaded
        seen = []

        def record(_connection, _cursor, statement, *_args):
            seen.append(statement)

        event.listen(db.engine, "before_cursor_execute", record)
        try:
            assert ok(client.get(f"/api/books/{book_id}"))["book"]
        finally:
            event.remove(db.engine, "before_cursor_execute", record)
        return len(seen)

    older = factories.book()
    few = factories.book(exams=[exam("jee-main")], subjects=[subject("jee-main", "physics")], replaces=older)
    many = factories.book(exams=[exam("jee-main"), exam("neet-ug"), exam("cat")], replaces=older,
                          subjects=[subject("jee-main", "physics"), subject("jee-main", "chemistry"),
                                    subject("neet-ug", "biology")])
    for _ in range(3):
        factories.book(replaces=many)
    many_id, few_id = many.id, few.id
    assert statements_for(many_id) == statements_for(few_id) <= 4
