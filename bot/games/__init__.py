"""The game service: the bot's use cases over the storage, knowing nothing of Discord.

Open it over a database file and call its use cases (the tests do exactly this)::

    service = await GameService.open("data/dvonn.sqlite3")
    challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=3)
    started = await service.accept_challenge(challenge.id, 4)
    outcome = await service.play(started.game.id, started.game.white_id, "E3")

A room per feature, named as bot/exts/ names the Discord layer's, over a shared core; nothing
is re-exported here: import each name from the module that defines it.

* ``service.py``: the composition root, :class:`~bot.games.service.GameService`: makes each
  feature's part, registers their game-end hooks and periodic jobs, answers the queries that
  are no feature's (games and records, players' and servers' settings).
* ``core/``: what every game goes through and every feature may use (errors, models,
  announcements, outbox, leases, results, checks, clocks and the deadline check, time controls,
  turns, random setups, a game's start, endings, ratings, the network's homes, the periodic
  jobs' registry); it imports no feature.
* ``lobby/``: challenges, games against the bot, rematches.
* ``network/``: the DVONN network: members, servers, blocks, network challenges, network games'
  homes (its periodic jobs run only when it is on).
* ``play/``: moves, resignations, aborts.
* ``clocks/``: losses on time, reminders, vacations.
* ``notices/``: turn notices and the daily digest.
* ``plans/``: planned lines (conditional moves).
* ``takebacks/``: takebacks asked and answered.
* ``tournaments/``: tournaments and leagues, rounds, pairing, standings.
* ``puzzles/``: puzzles, puzzle ratings, the daily puzzle.

Each feature keeps its refusals in its ``errors`` module and its outbox kinds (if it has any)
in its ``announcements`` module; features import the core, never each other
(tests/test_layers.py).
"""
