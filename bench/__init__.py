"""Benchmarks that print figures: `python -m bench [NAME ...]` (or `make bench`)."""
