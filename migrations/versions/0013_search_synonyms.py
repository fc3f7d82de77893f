"""Search that forgives: synonyms as data, a vocabulary for typo corrections, "c++" and ".net" as words

Revision ID: 0013_search_synonyms
Revises: 0012_account_delivery_pin
Create Date: 2026-11-25 15:17:34

- search_synonyms: groups of words and phrases a search treats as one ("class 10", "class x",
  "tenth"), one row per phrase, written as search words (services/search.tokens), seeded with the
  names Indian shoppers use for exams, classes, boards, cities and subjects; administrators edit
  them (PUT /api/admin/search-synonyms).
- SQLite: book_search_vocab, an fts5vocab table over book_search: the indexed words with how many
  books hold each, read by range (a word's first letter) to correct typos. PostgreSQL already has
  search_word_counts (migration 0009).
- Both indexes cut "C++" to "c"; their triggers now store "c++", "c#", "f#" and ".net" as the
  words cplusplus, csharp, fsharp and dotnet (services/search.SYMBOL_WORDS), and books that hold
  one are indexed again.
"""
import sqlalchemy as sa
from alembic import op

revision = '0013_search_synonyms'
down_revision = '0012_account_delivery_pin'
branch_labels = None
depends_on = None

SYMBOLS = (("C++", "cplusplus"), ("c++", "cplusplus"), ("C#", "csharp"), ("c#", "csharp"), ("F#", "fsharp"),
           ("f#", "fsharp"), (".NET", "dotnet"), (".Net", "dotnet"), (".net", "dotnet"))


def _symbol_words(expression: str) -> str:
    """The SQL text expression with each symbol name replaced by its word."""
    for symbol, word in SYMBOLS:
        expression = f"replace({expression}, '{symbol}', ' {word} ')"
    return expression


def _same(expression: str) -> str:
    return expression


def _sqlite_triggers(words) -> list[str]:
    """Migration 0001's index triggers, with `words` applied to the texts that may hold symbol names."""
    tags = "coalesce((SELECT group_concat(value, ' ') FROM json_each(new.tags)), '')"
    values = (f"new.id, {words('new.title')}, new.author, coalesce(new.isbn, ''), new.publisher,"
              f" (SELECT name FROM categories WHERE id = new.category_id), {words(tags)}, {words('new.description')}")
    return [
        "DROP TRIGGER books_search_insert",
        "DROP TRIGGER books_search_update",
        f"""CREATE TRIGGER books_search_insert AFTER INSERT ON books WHEN new.archived = 0 BEGIN
            INSERT INTO book_search (rowid, title, author, isbn, publisher, category, tags, description)
            VALUES ({values});
        END""",
        f"""CREATE TRIGGER books_search_update AFTER UPDATE OF title, author, isbn, publisher, category_id, tags,
            description, archived ON books BEGIN
            DELETE FROM book_search WHERE rowid = old.id;
            INSERT INTO book_search (rowid, title, author, isbn, publisher, category, tags, description)
            SELECT {values}
            WHERE new.archived = 0;
        END""",
    ]


def _postgres_function(words) -> str:
    """Migration 0001's tsvector trigger function, with `words` applied as in _sqlite_triggers."""
    tags = "coalesce((SELECT string_agg(value, ' ') FROM json_array_elements_text(NEW.tags)), '')"
    return f"""CREATE OR REPLACE FUNCTION books_search_vector_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.search_vector :=
            setweight(to_tsvector('simple', {words("coalesce(NEW.title, '')")}), 'A') ||
            setweight(to_tsvector('simple', coalesce(NEW.author, '')), 'B') ||
            setweight(to_tsvector('simple',
                coalesce((SELECT name FROM categories WHERE id = NEW.category_id), '') || ' ' ||
                {words(tags)} || ' ' ||
                coalesce(NEW.publisher, '') || ' ' || coalesce(NEW.isbn, '')), 'C') ||
            setweight(to_tsvector('simple', {words("coalesce(NEW.description, '')")}), 'D');
        RETURN NEW;
    END $$"""


# Books whose index entry changes: those holding a symbol name somewhere (updating the title to
# itself fires the index triggers).
_REINDEX = ("UPDATE books SET title = title WHERE title LIKE '%+%' OR title LIKE '%#%' OR lower(title) LIKE '%.net%'"
            " OR description LIKE '%+%' OR description LIKE '%#%' OR lower(description) LIKE '%.net%'"
            " OR CAST(tags AS TEXT) LIKE '%+%' OR CAST(tags AS TEXT) LIKE '%#%' OR lower(CAST(tags AS TEXT)) LIKE '%.net%'")


def _class_names(number: int, roman: str, ordinal: str, word: str | None) -> list[str]:
    # Few phrases a class: each is one more alternative every search for a class reads in the index.
    # Not "class 10th" (PostgreSQL matches synonym phrases word by word: a Class IX book's 10th
    # edition), and bare ordinals only where no other meaning is common ("first year").
    return [f"class {number}", f"class {roman}", f"{ordinal} class"] + ([word] if word else [])


_CLASSES = [(1, "i", "1st", None), (2, "ii", "2nd", None), (3, "iii", "3rd", None), (4, "iv", "4th", None),
            (5, "v", "5th", None), (6, "vi", "6th", None), (7, "vii", "7th", None), (8, "viii", "8th", None),
            (9, "ix", "9th", "ninth"), (10, "x", "10th", "tenth"), (11, "xi", "11th", "eleventh"),
            (12, "xii", "12th", "twelfth")]

# Written as search words: lower case, symbols and punctuation as services/search.tokens leaves them.
SEED_GROUPS = [
    ["jee main", "jee mains", "iit jee"],
    ["jee advanced", "jee adv", "iit advanced"],
    ["neet", "neet ug", "pmt", "aipmt", "medical entrance"],
    ["upsc", "ias", "cse", "upsc cse", "civil services", "civil service"],
    ["ssc cgl", "cgl", "combined graduate level"],
    ["ssc chsl", "chsl"],
    ["bank po", "ibps po", "sbi po", "probationary officer"],
    ["bank clerk", "ibps clerk", "sbi clerk"],
    ["bank exams", "banking exams", "bank exam"],
    ["cbse", "ncert"],
    ["ugc net", "nta net", "net jrf"],
    ["railway", "railways", "rrb"],
    ["defence", "defense"],
    ["state psc", "state pcs"],
    ["bengaluru", "bangalore"], ["mumbai", "bombay"], ["kolkata", "calcutta"], ["chennai", "madras"],
    ["pune", "poona"], ["delhi university", "du"], ["prayagraj", "allahabad"], ["thiruvananthapuram", "trivandrum"],
    ["maths", "math", "mathematics"],
    ["engg", "engineering"],
    ["gk", "general knowledge"],
    ["gs", "general studies"],
    ["evs", "environmental studies"],
    ["sst", "social science", "social studies"],
    ["cs", "computer science"],
    ["ai", "artificial intelligence"],
    ["ml", "machine learning"],
    ["dbms", "database management systems"],
    ["os", "operating systems"],
    ["dsa", "data structures and algorithms"],
    ["accounts", "accountancy", "accounting"],
    ["eco", "economics"],
    ["pol science", "political science"],
    ["bcom", "b com"], ["btech", "b tech"], ["bsc", "b sc"], ["bpharm", "b pharm"], ["dpharm", "d pharm"],
    ["pyq", "previous year papers", "previous years papers", "previous year questions"],
    ["mcq", "mcqs", "objective"],
    ["mock test", "mock tests", "test series"],
    ["gst", "goods and services tax"],
] + [_class_names(*names) for names in _CLASSES]

synonyms = sa.table("search_synonyms", sa.column("group_no", sa.Integer), sa.column("phrase", sa.String),
                    sa.column("first_word", sa.String))


def upgrade():
    op.create_table('search_synonyms',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_no', sa.Integer(), nullable=False),
    sa.Column('phrase', sa.String(length=80), nullable=False),
    sa.Column('first_word', sa.String(length=40), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_search_synonyms'))
    )
    with op.batch_alter_table('search_synonyms', schema=None) as batch_op:
        batch_op.create_index('ix_search_synonyms_first_word', ['first_word'], unique=False)
        batch_op.create_index('ix_search_synonyms_group_no', ['group_no'], unique=False)
    op.bulk_insert(synonyms, [{"group_no": n, "phrase": phrase, "first_word": phrase.split()[0]}
                              for n, group in enumerate(SEED_GROUPS, start=1) for phrase in group])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_postgres_function(_symbol_words))
    else:
        op.execute("CREATE VIRTUAL TABLE book_search_vocab USING fts5vocab(book_search, 'row')")
        for statement in _sqlite_triggers(_symbol_words):
            op.execute(statement)
    op.execute(_REINDEX)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_postgres_function(_same))
    else:
        for statement in _sqlite_triggers(_same):
            op.execute(statement)
        op.execute("DROP TABLE book_search_vocab")
    op.execute(_REINDEX)
    with op.batch_alter_table('search_synonyms', schema=None) as batch_op:
        batch_op.drop_index('ix_search_synonyms_group_no')
        batch_op.drop_index('ix_search_synonyms_first_word')
    op.drop_table('search_synonyms')
