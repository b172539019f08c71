"""``python -m tools.puzzles``: the puzzle generator and prover (see :mod:`tools.puzzles`)."""

import sys

from tools.puzzles import main

sys.exit(main())
