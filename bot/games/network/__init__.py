"""The DVONN network (issue 41): players of every server in one pool, by their own choice.

membership (joining, leaving, a home, deletion asked for), servers (a server takes part with
its network channel, moves it, stops; the bot removed), blocks, seeking (network challenges,
open and direct: :class:`~bot.games.network.seeking.NetworkLobby`), games (a network game's
homes made ready, lost, moved out; the deletion job), network (the use cases together, as the
service shows them: :class:`~bot.games.network.network.Network`), announcements, errors.
"""
