"""Catalogue feeds: reading a distributor's CSV or XLSX sheet or a publisher's ONIX 3.0 file into rows of
book fields (`readers`), the columns they are read by (`columns`) and the text of their cells (`values`).
Nothing here touches the database: services/feed_dry_run.py checks the rows against the catalogue."""


class FeedRefused(ValueError):
    """A file the shop cannot read as a feed at all; the message says why, for the admin."""
