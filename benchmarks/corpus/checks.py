"""The checks benchmarks/corpus/run.py makes on a prepared copy: routed views, Swift parsing, the
project.pbxproj through the PyPI readers `pbxproj` and `kin`."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
THUNK_CALL = re.compile(r'thunkBody\(\s*typeName:\s*"([^"\\]*)"')
DIAGNOSTIC = re.compile(r"^(.*?):\d+:\d+: error: (.*)$")


def routed_type_names(text: str) -> list[str]:
    """The `typeName` literal of every view body thunk in a file (generated code only has them)."""
    return THUNK_CALL.findall(text)


def parse_files(root: Path, paths: list[str]) -> dict:
    """`swiftc -parse` on the files; returns the ones with an error and their first message. One
    compiler run per batch of files with distinct base names (swiftc refuses two files of one name).
    A manifest is a script (top-level statements), which swiftc accepts only in a file parsed alone."""
    batches: list[dict[str, str]] = []
    for path in paths:
        name = Path(path).name

        def fits(batch: dict[str, str]) -> bool:
            names = {Path(other).name for other in batch.values()}
            return name != "Package.swift" and name not in names and "Package.swift" not in names

        batch = next((batch for batch in batches if fits(batch)), None)
        if batch is None:
            batch = {}
            batches.append(batch)
        batch[str(root / path)] = path
    failed: dict[str, str] = {}
    for batch in batches:
        result = subprocess.run(["swiftc", "-parse", *batch], capture_output=True, text=True)
        before = len(failed)
        for line in (result.stdout + result.stderr).splitlines():
            match = DIAGNOSTIC.match(line)
            if match and match.group(1) in batch:
                failed.setdefault(batch[match.group(1)], match.group(2))
        if result.returncode != 0 and len(failed) == before:
            failed["(swiftc)"] = (result.stderr or result.stdout).strip()[-300:]
    return {"failed": failed}


def require_python_readers() -> None:
    """Installs the independent pbxproj readers (requirements.txt) when they are missing."""
    try:
        import kin  # noqa: F401
        import pbxproj  # noqa: F401
    except ImportError:
        requirements = HERE / "requirements.txt"
        print(f"installing the pbxproj readers from {requirements} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "-r", str(requirements)])
        try:
            import kin  # noqa: F401
            import pbxproj  # noqa: F401
        except ImportError:
            sys.exit(f"error: the Python packages pbxproj and kin are not installed\n"
                     f"hint: run `{sys.executable} -m pip install -r {requirements}` and retry")


def pbxproj_round_trip(path: Path) -> dict:
    """Loads the file with `pbxproj`, saves it, loads the saved file and compares every object;
    runs `kin`'s grammar over the file. Both readers must accept it."""
    from kin.verifier import Verifier
    from pbxproj import XcodeProject

    problems = []
    pbxproj_ok = False
    try:
        project = XcodeProject.load(str(path))
        with tempfile.TemporaryDirectory() as folder:
            saved = Path(folder) / "project.pbxproj"
            project.save(str(saved))
            reloaded = XcodeProject.load(str(saved))
        before, after = project.objects.get_keys(), reloaded.objects.get_keys()
        if sorted(before) != sorted(after):
            problems.append(f"pbxproj: {len(set(before) ^ set(after))} object ids differ after save and reload")
        else:
            differing = [key for key in before if str(project.objects[key]) != str(reloaded.objects[key])]
            if differing:
                problems.append(f"pbxproj: {len(differing)} objects differ after save and reload, e.g. {differing[0]}")
        pbxproj_ok = not problems
    except Exception as error:  # the reader's own exceptions are not one type
        problems.append(f"pbxproj: {type(error).__name__}: {error}"[:300])
    kin_errors = Verifier().check_errors(str(path))
    problems += [f"kin: {error}" for error in kin_errors[:5]]
    return {"ok": pbxproj_ok and not kin_errors, "pbxproj": pbxproj_ok, "kin": not kin_errors,
            "objects": len(project.objects.get_keys()) if pbxproj_ok else None, "problems": problems}


def describe(check: dict, reader: str) -> str:
    """One reader's verdict on the file after init, noting when the original fails it too."""
    if check["after_init"][reader]:
        return "ok"
    return "fails (original too)" if not check["original"][reader] else "**fails**"


# The SDK API stand-in (Tests/SDKStandIn/README.md): modules in build order, each importing only earlier ones.
STAND_IN_MODULES = ["SwiftUI", "PatchSDK", "PatchRender", "PatchSwiftUI"]


def build_stand_in(sources: Path, output: Path) -> Path:
    """Builds the stand-in modules (`swiftc -emit-module`, as Tests/PatchBuildTests/SDKStandIn.swift
    does) into output; exits with the compiler's message when one does not build."""
    output.mkdir(parents=True, exist_ok=True)
    for module in STAND_IN_MODULES:
        result = subprocess.run(["swiftc", "-swift-version", "5", "-parse-as-library", "-emit-module", "-module-name", module,
                                 "-I", str(output), str(sources / f"{module}.swift"),
                                 "-emit-module-path", str(output / f"{module}.swiftmodule")],
                                capture_output=True, text=True, cwd=output)
        if result.returncode != 0:
            sys.exit(f"error: the SDK stand-in module {module} ({sources}) does not build:\n{result.stderr[-2000:]}\n"
                     f"hint: pass --stand-in with the folder of Tests/SDKStandIn from a branch where it builds")
    return output


def is_logic_code(text: str) -> bool:
    """Generated code that needs no SwiftUI (fingerprint, public key, function-only thunks)."""
    return "import SwiftUI" not in text and "thunkBody(" not in text


def typecheck_logic(prepared: Path, groups: dict[str, list[str]], launch_snippet: str | None, app_target: str,
                    modules: Path) -> dict:
    """Typechecks each target's generated logic files as one module (Swift 6, like current apps)
    against the stand-in; the app target's module also gets init's launch snippet as top-level code."""
    checked, diagnostics = [], []
    with tempfile.TemporaryDirectory() as folder:
        for target, paths in groups.items():
            files = [str(prepared / path) for path in paths]
            if target == app_target and launch_snippet:
                snippet = Path(folder) / target / "main.swift"
                snippet.parent.mkdir(parents=True)
                snippet.write_text(launch_snippet + "\n")
                files.append(str(snippet))
            if not files:
                continue
            result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "App", "-I", str(modules),
                                     *files], capture_output=True, text=True)
            checked += paths + (["(launch snippet)"] if target == app_target and launch_snippet else [])
            if result.returncode != 0:
                diagnostics += [line for line in result.stderr.splitlines() if ": error:" in line][:5] or [result.stderr[-300:]]
    return {"ok": not diagnostics, "files": checked, "diagnostics": diagnostics}


def pbxproj_accepted(check: dict) -> bool:
    """`pbxproj` round-trips the file after init, and `kin` finds nothing the untouched original does
    not also have (kin's grammar predates some Xcode 16 keys; line numbers move with edits)."""
    strip = lambda problems: sorted(re.sub(r"line \d+:\d+ ", "", problem) for problem in problems)  # noqa: E731
    after, original = check["after_init"], check["original"]
    return after["pbxproj"] and (after["kin"] or strip(after["problems"]) == strip(original["problems"]))
