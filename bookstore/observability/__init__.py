"""Logs, metrics and error reports: what operators of a fleet read."""
