"""The game service: the bot's use cases over the storage, knowing nothing of Discord.

Open it over a database file and call its use cases (the tests do exactly this)::

    service = await GameService.open("data/dvonn.sqlite3")
    challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=3)
    started = await service.accept_challenge(challenge.id, 4)
    outcome = await service.play(started.game.id, started.game.white_id, "E3")

Nothing is re-exported here: import each name from the module that defines it.
"""
