"""Build the compiled search: ``python -m ai.native.build`` (``make`` runs it).

Compiles ``engine.c`` with the C compiler (``$CC``, else ``cc``) into ``_engine.so`` beside it,
through a temporary file renamed into place, so a process loading the library never sees half of
it. Without a compiler it says so and exits 0: the levels then search in Python.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from ai.native import LIBRARY, SOURCE, SOURCES

FLAGS = ("-O2", "-std=c99", "-D_POSIX_C_SOURCE=199309L", "-Wall", "-Wextra", "-shared", "-fPIC")


def build(*, force: bool = False) -> bool:
    """Compile if the library is missing or older than its sources; whether it is there now."""
    if (
        not force
        and LIBRARY.exists()
        and all(LIBRARY.stat().st_mtime >= source.stat().st_mtime for source in SOURCES)
    ):
        return True
    compiler = shlex.split(os.environ.get("CC", "cc"))
    if not shutil.which(compiler[0]):
        print(f"ai.native: no C compiler ({compiler[0]}); the levels will search in Python.")
        return False
    handle, temporary = tempfile.mkstemp(suffix=".so", dir=LIBRARY.parent)
    os.close(handle)
    try:
        subprocess.run([*compiler, *FLAGS, "-o", temporary, str(SOURCE)], check=True)
        os.replace(temporary, LIBRARY)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return True


def main() -> None:
    try:
        build(force="--force" in sys.argv[1:])
    except subprocess.CalledProcessError as error:
        sys.exit(f"ai.native: the compiler failed ({error.returncode})")


if __name__ == "__main__":
    main()
