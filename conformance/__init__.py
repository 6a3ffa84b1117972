"""The conformance suite: golden playthroughs of every game, table size and option variant
(``playthroughs/``), and the runner that replays them against any service implementing the contract
(``python -m sevens_rules.conformance URL``; see the README, "Conformance suite")."""
