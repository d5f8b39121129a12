"""Runs one Python diff/patch operation so run.py can time it and read its peak RSS in a process of
its own (under /usr/bin/time). Interpreter start-up (about 10 MB RSS, tens of ms) is included, as it
would be for any user of these libraries from the command line.

usage: python_peer.py {bsdiff4,hdiffpatch} {diff OLD NEW PATCH | apply OLD PATCH OUT}
"""

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 6 or argv[1] not in ("bsdiff4", "hdiffpatch") or argv[2] not in ("diff", "apply"):
        print(__doc__, file=sys.stderr)
        return 2
    library, operation, first, second, output = argv[1:]
    if library == "bsdiff4":
        import bsdiff4

        if operation == "diff":
            bsdiff4.file_diff(first, second, output)
        else:
            bsdiff4.file_patch(first, output, second)
        return 0

    import hdiffpatch

    first_bytes = Path(first).read_bytes()
    second_bytes = Path(second).read_bytes()
    if operation == "diff":
        # bzip2, the compressor BSDIFF40 uses, so the size difference is down to matching and format.
        # validate=False: run.py checks the round trip itself, outside the timed diff.
        result = hdiffpatch.diff(first_bytes, second_bytes, compression="bzip2", validate=False)
    else:
        result = hdiffpatch.apply(first_bytes, second_bytes)
    Path(output).write_bytes(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
