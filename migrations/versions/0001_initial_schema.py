"""initial schema: users, categories, books, wishlist, contact, newsletter, search index

Revision ID: 0001_initial
Revises: 
Create Date: 2026-11-22 02:34:27.909730

"""
from alembic import op
import sqlalchemy as sa


CATEGORIES = [
    # name, slug, description, icon, colour (spec §3 order; 'B.COM' per decisions §1)
    ("I TO XII SCHOOL", "school", "NCERT, CBSE and state-board books for classes I to XII", "🏫", "#2e7d32"),
    ("B.A.", "ba", "Bachelor of Arts texts, guides and solved papers", "📜", "#6a1b9a"),
    ("B.COM", "bcom", "Accountancy, business law, economics and taxation for B.Com", "📊", "#1565c0"),
    ("M.A.", "ma", "Master of Arts readers and reference books", "🎓", "#4527a0"),
    ("MEDICAL TECHNICAL", "medical-technical", "Nursing, pharmacy, paramedical and allied health sciences", "🩺", "#c62828"),
    ("ENGINEERING COMPUTER", "engineering-computer", "Engineering and computer science textbooks", "💻", "#00838f"),
    ("I.I.T", "iit", "JEE Main and Advanced preparation", "⚙️", "#ef6c00"),
    ("BBA", "bba", "Bachelor of Business Administration", "💼", "#5d4037"),
    ("MBA", "mba", "MBA coursework and CAT, XAT, MAT preparation", "📈", "#283593"),
    ("PMT", "pmt", "NEET and pre-medical test preparation", "🧬", "#ad1457"),
    ("IAS", "ias", "UPSC civil services, prelims and mains", "🏛️", "#37474f"),
    ("GATE", "gate", "Graduate Aptitude Test in Engineering", "🛠️", "#00695c"),
    ("NET", "net", "UGC NET and CSIR NET", "🔬", "#558b2f"),
    ("GRE", "gre", "Graduate Record Examinations", "🌍", "#0277bd"),
    ("GMAT", "gmat", "Graduate Management Admission Test", "🧮", "#6d4c41"),
    ("SAT", "sat", "SAT for undergraduate study abroad", "✏️", "#f9a825"),
    ("BANKING", "banking", "IBPS, SBI PO and clerk, RBI grade B", "🏦", "#1b5e20"),
    ("OTHER COMPETITIVE BOOKS", "other-competitive", "SSC, railways, defence, state PSC and more", "📚", "#455a64"),
]

# SQLite: an FTS5 table of the books shoppers can see, kept in step by triggers (rowid = books.id).
# Archived books are left out, so a search needs no look-up in books to know what is visible.
SQLITE_SEARCH = [
    """CREATE VIRTUAL TABLE book_search USING fts5(
        title, author, isbn, publisher, category, tags, description,
        tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'", prefix = '2 3 4')""",
    """CREATE TRIGGER books_search_insert AFTER INSERT ON books WHEN new.archived = 0 BEGIN
        INSERT INTO book_search (rowid, title, author, isbn, publisher, category, tags, description)
        VALUES (new.id, new.title, new.author, coalesce(new.isbn, ''), new.publisher,
                (SELECT name FROM categories WHERE id = new.category_id),
                coalesce((SELECT group_concat(value, ' ') FROM json_each(new.tags)), ''), new.description);
    END""",
    """CREATE TRIGGER books_search_update AFTER UPDATE OF title, author, isbn, publisher, category_id, tags,
        description, archived ON books BEGIN
        DELETE FROM book_search WHERE rowid = old.id;
        INSERT INTO book_search (rowid, title, author, isbn, publisher, category, tags, description)
        SELECT new.id, new.title, new.author, coalesce(new.isbn, ''), new.publisher,
               (SELECT name FROM categories WHERE id = new.category_id),
               coalesce((SELECT group_concat(value, ' ') FROM json_each(new.tags)), ''), new.description
        WHERE new.archived = 0;
    END""",
    """CREATE TRIGGER books_search_delete AFTER DELETE ON books BEGIN
        DELETE FROM book_search WHERE rowid = old.id;
    END""",
]

# categories.book_count: visible (not archived) books per category, kept by triggers, so listing
# totals and the category cards never count 100,000 rows.
SQLITE_COUNTS = [
    """CREATE TRIGGER books_count_insert AFTER INSERT ON books WHEN new.archived = 0 BEGIN
        UPDATE categories SET book_count = book_count + 1 WHERE id = new.category_id;
    END""",
    """CREATE TRIGGER books_count_delete AFTER DELETE ON books WHEN old.archived = 0 BEGIN
        UPDATE categories SET book_count = book_count - 1 WHERE id = old.category_id;
    END""",
    """CREATE TRIGGER books_count_update AFTER UPDATE OF archived, category_id ON books BEGIN
        UPDATE categories SET book_count = book_count - 1 WHERE id = old.category_id AND old.archived = 0;
        UPDATE categories SET book_count = book_count + 1 WHERE id = new.category_id AND new.archived = 0;
    END""",
]
POSTGRES_COUNTS = [
    """CREATE FUNCTION books_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.archived THEN
            UPDATE categories SET book_count = book_count - 1 WHERE id = OLD.category_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NOT NEW.archived THEN
            UPDATE categories SET book_count = book_count + 1 WHERE id = NEW.category_id;
        END IF;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER books_count AFTER INSERT OR DELETE OR UPDATE OF archived, category_id ON books
        FOR EACH ROW EXECUTE FUNCTION books_count_update()""",
]

# PostgreSQL: a weighted tsvector column (A title, B author, C category, tags, publisher and
# ISBN, D description) maintained by a trigger and indexed with GIN.
POSTGRES_SEARCH = [
    "ALTER TABLE books ADD COLUMN search_vector tsvector",
    """CREATE FUNCTION books_search_vector_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.search_vector :=
            setweight(to_tsvector('simple', coalesce(NEW.title, '')), 'A') ||
            setweight(to_tsvector('simple', coalesce(NEW.author, '')), 'B') ||
            setweight(to_tsvector('simple',
                coalesce((SELECT name FROM categories WHERE id = NEW.category_id), '') || ' ' ||
                coalesce((SELECT string_agg(value, ' ') FROM json_array_elements_text(NEW.tags)), '') || ' ' ||
                coalesce(NEW.publisher, '') || ' ' || coalesce(NEW.isbn, '')), 'C') ||
            setweight(to_tsvector('simple', coalesce(NEW.description, '')), 'D');
        RETURN NEW;
    END $$""",
    """CREATE TRIGGER books_search_vector BEFORE INSERT OR UPDATE OF title, author, isbn, publisher,
        category_id, tags, description ON books
        FOR EACH ROW EXECUTE FUNCTION books_search_vector_update()""",
    "CREATE INDEX ix_books_search_vector ON books USING gin (search_vector)",
]


# revision identifiers, used by Alembic.
revision = '0001_initial'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    # ### commands auto generated by Alembic - please adjust! ###
    op.create_table('categories',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('slug', sa.String(length=60), nullable=False),
    sa.Column('description', sa.String(length=300), nullable=False),
    sa.Column('icon', sa.String(length=16), nullable=False),
    sa.Column('color', sa.String(length=16), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('book_count', sa.Integer(), server_default='0', nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_categories')),
    sa.UniqueConstraint('name', name=op.f('uq_categories_name')),
    sa.UniqueConstraint('slug', name=op.f('uq_categories_slug'))
    )
    op.create_table('contact_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('phone', sa.String(length=20), nullable=True),
    sa.Column('subject', sa.String(length=20), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('new', 'in-progress', 'resolved')", name=op.f('ck_contact_messages_status')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_contact_messages'))
    )
    with op.batch_alter_table('contact_messages', schema=None) as batch_op:
        batch_op.create_index('ix_contact_messages_status_created', ['status', 'created_at'], unique=False)

    op.create_table('newsletter_subscribers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('confirm_token', sa.String(length=64), nullable=True),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('unsubscribed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_newsletter_subscribers')),
    sa.UniqueConstraint('confirm_token', name=op.f('uq_newsletter_subscribers_confirm_token')),
    sa.UniqueConstraint('email', name=op.f('uq_newsletter_subscribers_email'))
    )
    op.create_table('users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=True),
    sa.Column('first_name', sa.String(length=100), nullable=False),
    sa.Column('last_name', sa.String(length=100), nullable=False),
    sa.Column('phone', sa.String(length=20), nullable=True),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('email_verified', sa.Boolean(), nullable=False),
    sa.Column('tokens_valid_after', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("role IN ('customer', 'admin')", name=op.f('ck_users_role')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
    sa.UniqueConstraint('email', name=op.f('uq_users_email'))
    )
    op.create_table('books',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('author', sa.String(length=200), nullable=False),
    sa.Column('category_id', sa.Integer(), nullable=False),
    sa.Column('price_paise', sa.Integer(), nullable=False),
    sa.Column('discounted_price_paise', sa.Integer(), nullable=True),
    sa.Column('stock', sa.Integer(), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('isbn', sa.String(length=13), nullable=True),
    sa.Column('publisher', sa.String(length=200), nullable=False),
    sa.Column('publication_date', sa.Date(), nullable=True),
    sa.Column('language', sa.String(length=40), nullable=False),
    sa.Column('pages', sa.Integer(), nullable=True),
    sa.Column('format', sa.String(length=20), nullable=False),
    sa.Column('dimensions', sa.String(length=60), nullable=False),
    sa.Column('weight', sa.String(length=20), nullable=False),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('rating_count', sa.Integer(), nullable=False),
    sa.Column('copies_sold', sa.Integer(), nullable=False),
    sa.Column('cover_key', sa.String(length=255), nullable=True),
    sa.Column('thumbnail_key', sa.String(length=255), nullable=True),
    sa.Column('archived', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('discounted_price_paise IS NULL OR (discounted_price_paise >= 0 AND discounted_price_paise < price_paise)', name=op.f('ck_books_discount_below_price')),
    sa.CheckConstraint('price_paise >= 0', name=op.f('ck_books_price_not_negative')),
    sa.CheckConstraint('stock >= 0', name=op.f('ck_books_stock_not_negative')),
    sa.ForeignKeyConstraint(['category_id'], ['categories.id'], name=op.f('fk_books_category_id_categories')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_books')),
    sa.UniqueConstraint('isbn', name=op.f('uq_books_isbn'))
    )
    with op.batch_alter_table('books', schema=None) as batch_op:
        batch_op.create_index('ix_books_listing_bestselling', ['archived', 'copies_sold'], unique=False)
        batch_op.create_index('ix_books_listing_category', ['category_id', 'archived', 'created_at'], unique=False)
        batch_op.create_index('ix_books_listing_category_price', ['category_id', 'archived', sa.text('coalesce(discounted_price_paise, price_paise)')], unique=False)
        batch_op.create_index('ix_books_listing_newest', ['archived', 'created_at', 'id'], unique=False)
        batch_op.create_index('ix_books_listing_published', ['archived', 'publication_date'], unique=False)
        batch_op.create_index('ix_books_listing_rating', ['archived', 'rating'], unique=False)
        batch_op.create_index('ix_books_listing_title', ['archived', 'title'], unique=False)
        # Expression index for sorting and filtering by what the shopper pays (autogenerate skips these).
        batch_op.create_index('ix_books_listing_price', ['archived', sa.text('coalesce(discounted_price_paise, price_paise)')], unique=False)

    op.create_table('wishlist_items',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_wishlist_items_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_wishlist_items_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'book_id', name=op.f('pk_wishlist_items'))
    )
    with op.batch_alter_table('wishlist_items', schema=None) as batch_op:
        batch_op.create_index('ix_wishlist_items_book_id', ['book_id'], unique=False)
    # ### end Alembic commands ###

    categories = sa.table(
        'categories', sa.column('name'), sa.column('slug'), sa.column('description'), sa.column('icon'),
        sa.column('color'), sa.column('position'))
    op.bulk_insert(categories, [
        {'name': n, 'slug': s, 'description': d, 'icon': i, 'color': c, 'position': p}
        for p, (n, s, d, i, c) in enumerate(CATEGORIES, start=1)
    ])

    dialect = op.get_bind().dialect.name
    statements = {'sqlite': SQLITE_SEARCH + SQLITE_COUNTS, 'postgresql': POSTGRES_SEARCH + POSTGRES_COUNTS}
    for statement in statements.get(dialect, []):
        op.execute(statement)


def downgrade():
    dialect = op.get_bind().dialect.name
    if dialect == 'sqlite':
        op.execute("DROP TABLE IF EXISTS book_search")
    elif dialect == 'postgresql':
        op.execute("DROP TRIGGER IF EXISTS books_search_vector ON books")
        op.execute("DROP FUNCTION IF EXISTS books_search_vector_update()")
        op.execute("DROP TRIGGER IF EXISTS books_count ON books")
        op.execute("DROP FUNCTION IF EXISTS books_count_update()")
    # ### commands auto generated by Alembic - please adjust! ###
    with op.batch_alter_table('wishlist_items', schema=None) as batch_op:
        batch_op.drop_index('ix_wishlist_items_book_id')
    op.drop_table('wishlist_items')
    with op.batch_alter_table('books', schema=None) as batch_op:
        batch_op.drop_index('ix_books_listing_price')
        batch_op.drop_index('ix_books_listing_title')
        batch_op.drop_index('ix_books_listing_rating')
        batch_op.drop_index('ix_books_listing_published')
        batch_op.drop_index('ix_books_listing_newest')
        batch_op.drop_index('ix_books_listing_category_price')
        batch_op.drop_index('ix_books_listing_category')
        batch_op.drop_index('ix_books_listing_bestselling')

    op.drop_table('books')
    op.drop_table('users')
    op.drop_table('newsletter_subscribers')
    with op.batch_alter_table('contact_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_contact_messages_status_created')

    op.drop_table('contact_messages')
    op.drop_table('categories')
    # ### end Alembic commands ###
