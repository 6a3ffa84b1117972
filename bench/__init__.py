"""The bench: ``python -m bench`` (see bench/README.md)."""
