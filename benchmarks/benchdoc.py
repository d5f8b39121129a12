"""What every benchmark shares: describing the machine and its load, and replacing the benchmark's
own section of docs/benchmarks.md between its BEGIN/END markers (see benchmarks/README.md)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


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


class LoadMonitor:
    """Samples the 1-minute load average between measurements, so the report can say how busy the
    shared machine was while the numbers were taken."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.sample()

    def sample(self) -> None:
        if hasattr(os, "getloadavg"):
            self.samples.append(os.getloadavg()[0])

    def describe(self) -> str:
        if not self.samples:
            return "unknown"
        return (f"1-min load average {self.samples[0]:.2f} at start, max {max(self.samples):.2f} "
                f"between measurements, {self.samples[-1]:.2f} at end ({os.cpu_count()} CPUs)")


def write_section(section: str, begin: str, end: str, doc_path: Path = DOC_PATH) -> None:
    """Replaces the text between the `begin` and `end` markers (markers included; `section` carries
    them) or appends `section`, leaving the other sections alone; written atomically."""
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    if doc_path.exists():
        text = doc_path.read_text()
    else:
        text = ("# Benchmarks\n\nEach section below is written by its benchmark script (see `benchmarks/README.md`); "
                "rerun the script rather than editing a section by hand.\n\n")
    start, stop = text.find(begin), text.find(end)
    if start != -1 and stop != -1 and stop > start:
        rest = text[stop + len(end):].lstrip("\n")
        text = text[:start] + section + ("\n" + rest if rest else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    temporary = doc_path.with_name(doc_path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, doc_path)


def build_patchcli(debug: bool, label: str) -> Path:
    """Builds patchcli (release unless `debug`) into .build-bench, away from the tests' .build."""
    configuration = "debug" if debug else "release"
    scratch = DOC_PATH.parent.parent / ".build-bench"
    print(f"{label}: building patchcli ({configuration}) into {scratch} (the first release build takes a while)",
          file=sys.stderr, flush=True)
    subprocess.run(["swift", "build", "-c", configuration, "--product", "patchcli", "--scratch-path", str(scratch)],
                   cwd=DOC_PATH.parent.parent, check=True)
    return scratch / configuration / "patchcli"
