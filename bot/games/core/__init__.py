"""The game service's core: what every game goes through and every feature may use, importing
no feature (tests/test_layers.py).

errors (the base of every service error, those of any game, and the refusals of challenges),
models (the storage's values the Discord layer sees), announcements (the outbox kinds of every
game: a turn, a start, an end, a channel lost), outbox, leases (background work shared by
processes), results, checks (before an action; who runs a tournament; a clock offered, a
challenge still open), clocks (the game clock, and the deadline check every action makes),
timecontrol (days per move and time banks, pure), turns (a move with its forced passes, and its
record), setups (random setups from a seed, a game's opening), starts (a game begun from a
challenge accepted: colours, setup, clock), endings (the one way a game ends, with the
features' game-end hooks), ratings (Glicko-2: the servers' and the network's), network (the
network's id among the servers', a network game's homes), housekeeping (the registry of periodic
jobs).
"""
