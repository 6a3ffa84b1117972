"""Bots for every game: the sampler of states consistent with a seat's information, and the levels."""
