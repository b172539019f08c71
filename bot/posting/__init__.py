"""The posting side: what the bot says about games, and how it reaches Discord.

* :mod:`~bot.posting.texts`: the posts' words as catalogue texts (pure: no Discord, no I/O);
* :mod:`~bot.posting.renderer`: board images and replays, drawn in worker processes;
* :mod:`~bot.posting.publisher`: posts turned into messages in the reader's language, and sent
  to the game's thread; :mod:`~bot.posting.names`: players' display names;
* :mod:`~bot.posting.outbox`: delivering the announcements the game service stored.

Features use it; it imports no feature.
"""
