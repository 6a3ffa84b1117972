"""The rules engine: each game's rules on a representation of its own (positions of ints and card sets),
read from and written back to the wire models of :mod:`schema` once per request; knows nothing of HTTP."""
