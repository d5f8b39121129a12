"""Writes one benchmark's section of docs/benchmarks.md, leaving the other sections alone.

Shared by every benchmarks/<name>/ script: the section runs from its BEGIN marker line to its END
marker; a missing section is appended. The file is replaced atomically (temporary file + rename).
"""
import os
from pathlib import Path

HEADER = ("# Benchmarks\n\nEach section below is written by its benchmark script (see `benchmarks/README.md`); "
          "rerun the script rather than editing a section by hand.\n\n")


def write_section(doc_path: Path, begin_marker: str, end_marker: str, section: str) -> None:
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    text = doc_path.read_text() if doc_path.exists() else HEADER
    begin, end = text.find(begin_marker), text.find(end_marker)
    if begin != -1 and end != -1 and end > begin:
        rest = text[end + len(end_marker):].lstrip("\n")
        text = text[:begin] + section + ("\n" + rest if rest else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    temporary = doc_path.with_name(doc_path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, doc_path)
