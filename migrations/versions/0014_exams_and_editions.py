"""exams and their subjects, books tagged with them; books.medium, edition year and number, replaces_id

Revision ID: 0014_exams_and_editions
Revises: 0013_search_synonyms
Create Date: 2026-11-25 15:13:24

Exams sit beside the 18 categories (decisions §9): an exam (JEE Main, NEET-UG, CBSE Class 10, ...)
has subjects or papers, and a book belongs to any number of both (book_exams, book_subjects). The
exams are reference data like the categories, so this migration inserts them: every database, a
fresh install's and the tests', has the same list without a separate seed step.

books.medium is a fixed list (english, hindi, bilingual). `language` stays the book's own free text;
existing values are read into the medium ("Hindi Medium" -> hindi, "English & Hindi" -> bilingual,
anything else english). Edition year starts as the publication year where one is known.

Filtered totals are remembered per process under categories.filter_version (migration 0010): its
trigger now also watches medium and edition year, and adding or removing a book's exam or subject
bumps the version of the book's category too. Books' columns are added with plain ALTER TABLE on
SQLite: a batch rebuild of books would drop its search and count triggers.
"""
import re

import sqlalchemy as sa
from alembic import op

revision = '0014_exams_and_editions'
down_revision = '0013_search_synonyms'
branch_labels = None
depends_on = None

OLD_FILTERED = ("price_paise", "discounted_price_paise", "rating", "format", "language")
FILTERED = OLD_FILTERED + ("medium", "edition_year")

_APTITUDE = ("General Aptitude", "Engineering Mathematics")
_BANK = ("Quantitative Aptitude", "Reasoning Ability", "English Language", "General Awareness",
         "Computer Knowledge")
_SSC = ("Quantitative Aptitude", "General Intelligence and Reasoning", "English Comprehension",
        "General Awareness")

# (slug, name, short name, group, popular, subjects), in the order /exams lists them.
EXAMS = [
    ("jee-main", "JEE Main", "JEE Main", "Engineering", True, ("Physics", "Chemistry", "Mathematics",
                                                              "Aptitude and Drawing")),
    ("jee-advanced", "JEE Advanced", "JEE Advanced", "Engineering", True, ("Physics", "Chemistry", "Mathematics")),
    ("gate-cse", "GATE Computer Science and IT", "GATE CS", "Engineering", True, _APTITUDE + (
        "Data Structures and Algorithms", "Operating Systems", "Databases", "Computer Networks",
        "Theory of Computation", "Digital Logic")),
    ("gate-ece", "GATE Electronics and Communication", "GATE EC", "Engineering", False, _APTITUDE + (
        "Networks, Signals and Systems", "Electronic Devices", "Analog Circuits", "Digital Circuits",
        "Communications")),
    ("gate-ee", "GATE Electrical Engineering", "GATE EE", "Engineering", False, _APTITUDE + (
        "Electric Circuits", "Electrical Machines", "Power Systems", "Control Systems")),
    ("gate-me", "GATE Mechanical Engineering", "GATE ME", "Engineering", False, _APTITUDE + (
        "Thermodynamics", "Fluid Mechanics", "Strength of Materials", "Manufacturing")),
    ("gate-ce", "GATE Civil Engineering", "GATE CE", "Engineering", False, _APTITUDE + (
        "Structural Engineering", "Geotechnical Engineering", "Environmental Engineering",
        "Transportation Engineering")),
    ("gate-ch", "GATE Chemical Engineering", "GATE CH", "Engineering", False, _APTITUDE + (
        "Process Calculations", "Heat Transfer", "Mass Transfer", "Chemical Reaction Engineering")),
    ("neet-ug", "NEET-UG", "NEET", "Medical", True, ("Physics", "Chemistry", "Biology")),
    ("upsc-cse-prelims", "UPSC Civil Services Prelims", "UPSC Prelims", "Civil services", True, (
        "History", "Geography", "Polity", "Economy", "Environment", "Science and Technology",
        "Current Affairs", "CSAT")),
    ("upsc-cse-mains", "UPSC Civil Services Mains", "UPSC Mains", "Civil services", False, (
        "Essay", "General Studies I", "General Studies II", "General Studies III", "General Studies IV (Ethics)",
        "Optional Subject")),
    ("ssc-cgl", "SSC Combined Graduate Level", "SSC CGL", "Government jobs", True, _SSC),
    ("ssc-chsl", "SSC Combined Higher Secondary Level", "SSC CHSL", "Government jobs", False, _SSC),
    ("ibps-po", "IBPS Probationary Officer", "IBPS PO", "Banking", True, _BANK),
    ("ibps-clerk", "IBPS Clerk", "IBPS Clerk", "Banking", False, _BANK),
    ("sbi-po", "SBI Probationary Officer", "SBI PO", "Banking", False, _BANK),
    ("sbi-clerk", "SBI Clerk", "SBI Clerk", "Banking", False, _BANK),
    ("cat", "Common Admission Test", "CAT", "Management", True, (
        "Quantitative Ability", "Verbal Ability and Reading Comprehension",
        "Data Interpretation and Logical Reasoning")),
    ("clat", "Common Law Admission Test", "CLAT", "Law", False, (
        "English Language", "Current Affairs and General Knowledge", "Legal Reasoning", "Logical Reasoning",
        "Quantitative Techniques")),
    ("cuet-ug", "CUET-UG", "CUET-UG", "University entrance", True, (
        "English", "General Test", "Physics", "Chemistry", "Mathematics", "Biology", "Accountancy",
        "Economics", "History", "Political Science")),
    ("ugc-net", "UGC NET", "UGC NET", "University entrance", False, (
        "Teaching and Research Aptitude (Paper I)", "Commerce", "Economics", "English", "History",
        "Political Science", "Computer Science", "Education")),
    ("gre", "GRE General Test", "GRE", "Study abroad", False, (
        "Verbal Reasoning", "Quantitative Reasoning", "Analytical Writing")),
    ("gmat", "GMAT Focus Edition", "GMAT", "Study abroad", False, (
        "Quantitative Reasoning", "Verbal Reasoning", "Data Insights")),
    ("sat", "SAT", "SAT", "Study abroad", False, ("Reading and Writing", "Math")),
]

_PRIMARY = ("English", "Hindi", "Mathematics", "Environmental Studies")
_MIDDLE = ("English", "Hindi", "Mathematics", "Science", "Social Science")
_SENIOR = ("Physics", "Chemistry", "Mathematics", "Biology", "Accountancy", "Business Studies", "Economics",
           "English", "History", "Political Science", "Computer Science")
for _board_slug, _board, _popular in (("cbse", "CBSE", (10, 12)), ("icse", "ICSE", ()),
                                      ("state-board", "State boards", ())):
    for _grade in range(1, 13):
        _subjects = _PRIMARY if _grade <= 5 else _MIDDLE if _grade <= 10 else _SENIOR
        EXAMS.append((f"{_board_slug}-class-{_grade}", f"{_board} Class {_grade}", f"Class {_grade}",
                      f"School: {_board}", _grade in _popular, _subjects))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _filters_trigger(columns: tuple[str, ...]) -> None:
    listed = ", ".join(columns)
    if op.get_bind().dialect.name == "postgresql":
        changed = " OR ".join(f"old.{column} IS DISTINCT FROM new.{column}" for column in columns)
        op.execute("DROP TRIGGER books_filters_changed ON books")
        op.execute(f"""CREATE TRIGGER books_filters_changed AFTER UPDATE OF {listed} ON books FOR EACH ROW
            WHEN (NOT new.archived AND ({changed}))
            EXECUTE FUNCTION books_filters_changed()""")
        return
    changed = " OR ".join(f"old.{column} IS NOT new.{column}" for column in columns)
    op.execute("DROP TRIGGER books_filters_changed")
    op.execute(f"""CREATE TRIGGER books_filters_changed AFTER UPDATE OF {listed} ON books
        WHEN new.archived = 0 AND ({changed}) BEGIN
            UPDATE categories SET filter_version = filter_version + 1 WHERE id = new.category_id;
        END""")


TAG_TABLES = ("book_exams", "book_subjects")


def _tag_triggers() -> None:
    """A book's exams or subjects changing bumps its category's filter_version (if the book is visible)."""
    if op.get_bind().dialect.name == "postgresql":
        # Statement triggers with transition tables: a bulk load bumps each category once per statement.
        op.execute("""CREATE FUNCTION book_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE categories SET filter_version = filter_version + 1 WHERE id IN (
                    SELECT books.category_id FROM changed JOIN books ON books.id = changed.book_id
                    WHERE NOT books.archived);
                RETURN NULL;
            END $$""")
        for table in TAG_TABLES:
            for event, name in (("INSERT", "NEW"), ("DELETE", "OLD")):
                op.execute(f"""CREATE TRIGGER {table}_{event.lower()} AFTER {event} ON {table}
                    REFERENCING {name} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION book_tags_changed()""")
        return
    for table in TAG_TABLES:
        for event, row in (("INSERT", "new"), ("DELETE", "old")):
            op.execute(f"""CREATE TRIGGER {table}_{event.lower()} AFTER {event} ON {table} BEGIN
                UPDATE categories SET filter_version = filter_version + 1
                WHERE id = (SELECT category_id FROM books WHERE id = {row}.book_id AND archived = 0);
            END""")


def upgrade():
    exams = op.create_table('exams',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=60), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('short_name', sa.String(length=40), nullable=False),
    sa.Column('group', sa.String(length=60), nullable=False),
    sa.Column('description', sa.String(length=300), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('popular', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exams')),
    sa.UniqueConstraint('slug', name=op.f('uq_exams_slug'))
    )
    subjects = op.create_table('exam_subjects',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('exam_id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=60), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['exam_id'], ['exams.id'], name=op.f('fk_exam_subjects_exam_id_exams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exam_subjects')),
    sa.UniqueConstraint('exam_id', 'slug', name=op.f('uq_exam_subjects_exam_id'))
    )
    op.create_index('ix_exam_subjects_slug', 'exam_subjects', ['slug'], unique=False)

    op.create_table('book_exams',
    sa.Column('exam_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_book_exams_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['exam_id'], ['exams.id'], name=op.f('fk_book_exams_exam_id_exams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('exam_id', 'book_id', name=op.f('pk_book_exams'))
    )
    op.create_index('ix_book_exams_book_id', 'book_exams', ['book_id'], unique=False)

    op.create_table('book_subjects',
    sa.Column('subject_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_book_subjects_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['subject_id'], ['exam_subjects.id'], name=op.f('fk_book_subjects_subject_id_exam_subjects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('subject_id', 'book_id', name=op.f('pk_book_subjects'))
    )
    op.create_index('ix_book_subjects_book_id', 'book_subjects', ['book_id'], unique=False)

    medium_check = "CONSTRAINT ck_books_medium_known CHECK (medium IN ('english', 'hindi', 'bilingual'))"
    edition_check = "CONSTRAINT ck_books_edition_number_positive CHECK (edition_number IS NULL OR edition_number >= 1)"
    op.execute(f"ALTER TABLE books ADD COLUMN medium VARCHAR(10) DEFAULT 'english' NOT NULL {medium_check}")
    op.execute("ALTER TABLE books ADD COLUMN edition_year INTEGER")
    op.execute(f"ALTER TABLE books ADD COLUMN edition_number INTEGER {edition_check}")
    op.execute("ALTER TABLE books ADD COLUMN replaces_id INTEGER CONSTRAINT fk_books_replaces_id_books "
               "REFERENCES books (id)")
    op.create_index('ix_books_replaces_id', 'books', ['replaces_id'], unique=False)

    op.execute("""UPDATE books SET medium = CASE
        WHEN lower(language) LIKE '%bilingual%' OR lower(language) LIKE '%dual%'
             OR (lower(language) LIKE '%hindi%' AND lower(language) LIKE '%english%') THEN 'bilingual'
        WHEN lower(language) LIKE '%hindi%' OR language LIKE '%हिंदी%' OR language LIKE '%हिन्दी%' THEN 'hindi'
        ELSE 'english' END""")
    year = ("CAST(strftime('%Y', publication_date) AS INTEGER)" if op.get_bind().dialect.name == "sqlite"
            else "CAST(extract(year FROM publication_date) AS INTEGER)")
    op.execute(f"UPDATE books SET edition_year = {year} WHERE publication_date IS NOT NULL")

    exam_rows, subject_rows = [], []
    for position, (slug, name, short_name, group, popular, names) in enumerate(EXAMS, start=1):
        exam_rows.append({"id": position, "slug": slug, "name": name, "short_name": short_name, "group": group,
                          "description": "", "position": position, "popular": popular})
        for order, subject in enumerate(names, start=1):
            subject_rows.append({"id": len(subject_rows) + 1, "exam_id": position, "slug": _slug(subject),
                                 "name": subject, "position": order})
    op.bulk_insert(exams, exam_rows)
    op.bulk_insert(subjects, subject_rows)
    if op.get_bind().dialect.name == "postgresql":
        # Ids were given: move the sequences past them.
        op.execute("SELECT setval(pg_get_serial_sequence('exams', 'id'), (SELECT max(id) FROM exams))")
        op.execute("SELECT setval(pg_get_serial_sequence('exam_subjects', 'id'), (SELECT max(id) FROM exam_subjects))")

    _filters_trigger(FILTERED)
    _tag_triggers()


def downgrade():
    _filters_trigger(OLD_FILTERED)
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in TAG_TABLES:
        for event in ("insert", "delete"):
            op.execute(f"DROP TRIGGER {table}_{event} ON {table}" if postgres else f"DROP TRIGGER {table}_{event}")
    if postgres:
        op.execute("DROP FUNCTION book_tags_changed()")
    op.drop_index('ix_books_replaces_id', table_name='books')
    if postgres:
        op.execute("ALTER TABLE books DROP CONSTRAINT fk_books_replaces_id_books")
    # Plain ALTER TABLE, like 0005 and 0010 (SQLite 3.35+); a batch rebuild would break the books triggers.
    for column in ("replaces_id", "edition_number", "edition_year", "medium"):
        op.execute(f"ALTER TABLE books DROP COLUMN {column}")
    op.drop_index('ix_book_subjects_book_id', table_name='book_subjects')
    op.drop_table('book_subjects')
    op.drop_index('ix_book_exams_book_id', table_name='book_exams')
    op.drop_table('book_exams')
    op.drop_index('ix_exam_subjects_slug', table_name='exam_subjects')
    op.drop_table('exam_subjects')
    op.drop_table('exams')
