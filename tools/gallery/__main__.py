"""``python -m tools.gallery out/``: the gallery (see :mod:`tools.gallery`)."""

from tools.gallery import main

main()
