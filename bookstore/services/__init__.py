"""Business rules: plain functions with business verbs, one transaction per use case."""
