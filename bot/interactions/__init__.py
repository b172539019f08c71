"""What every command and button of the bot shares (no feature of its own):

* :mod:`~bot.interactions.errors`: the errors a user causes, and the one handler that answers
  every error privately, in the user's language;
* :mod:`~bot.interactions.buttons`: the base of persistent buttons, run like commands;
* :mod:`~bot.interactions.inflight`: counting the work in flight, for a clean shutdown;
* :mod:`~bot.interactions.lookup`: finding the game a command is about;
* :mod:`~bot.interactions.organisers`: who may run the server's tournaments;
* :mod:`~bot.interactions.choices`: option choices several commands offer;
* :mod:`~bot.interactions.move_picker`: the one move picker (stack, landing, confirm) that the
  game's, the plans' and the puzzles' pickers share, and :mod:`~bot.interactions.move_labels`:
  how a menu names a move;
* :mod:`~bot.interactions.transcripts`: reading a Little Golem transcript a user attached.

Features use it; it imports no feature and not the composition root (:mod:`bot.app`).
"""
