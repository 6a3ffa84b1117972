"""The rules engine: pure functions over the wire models of :mod:`schema`; knows nothing of HTTP."""
