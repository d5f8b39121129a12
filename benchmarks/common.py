"""What the benchmark scripts share: the machine description recorded with results, and writing one
benchmark's section of docs/benchmarks.md between its BEGIN/END markers, leaving the others alone."""

from __future__ import annotations

import os
import platform
from pathlib import Path

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def write_section(section: str, begin_marker: str, end_marker: str, doc_path: Path = DOC_PATH) -> None:
    """`section` starts with `begin_marker` and ends with `end_marker`; written atomically."""
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    if doc_path.exists():
        text = doc_path.read_text()
    else:
        text = ("# Benchmarks\n\nEach section below is written by its benchmark script (see `benchmarks/README.md`); "
                "rerun the script rather than editing a section by hand.\n\n")
    begin, end = text.find(begin_marker), text.find(end_marker)
    if begin != -1 and end != -1 and end > begin:
        rest = text[end + len(end_marker):].lstrip("\n")
        text = text[:begin] + section + ("\n" + rest if rest else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    temporary = doc_path.with_name(doc_path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, doc_path)


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        first = meminfo.read_text().splitlines()[0].split()
        memory = f", {int(first[1]) / (1 << 20):.1f} GiB RAM"
    return f"{cpu}, {os.cpu_count()} CPUs{memory}, {platform.system()} {platform.release()}"
