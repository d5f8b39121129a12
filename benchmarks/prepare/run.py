#!/usr/bin/env python3
"""Benchmark of `patchcli prepare` on a synthetic SwiftUI app (400 files, ~40k lines by default).

Measures, with a release build of patchcli:
  * the first run (nothing cached) against the time swift-syntax's parser alone takes on the same
    files (`parse_seconds` in prepare's --json result: the time inside `Parser.parse`);
  * a re-run with nothing changed (scans come from `.patch/cache`, keyed by file content hash);
  * a re-run after editing one file;
  * peak memory (max RSS) of each run.
Targets (issue 4): first run <= 1.5x parse time; unchanged re-run <= 0.3 s for 40k lines.

Usage: python3 benchmarks/prepare/run.py [--files 400] [--patchcli PATH] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
TARGET_FIRST_RUN_RATIO = 1.5
TARGET_RERUN_SECONDS = 0.3


def view_file(index: int) -> str:
    """A screen with a nested row view, a generic container, a private badge and logic: ~100 lines."""
    n = index
    return f"""import SwiftUI

struct Screen{n}: View {{
    @State private var query = ""
    @State private var selection: Int?
    let items: [Item{n}]

    var filtered: [Item{n}] {{
        items.filter {{ query.isEmpty || $0.title.localizedCaseInsensitiveContains(query) }}
    }}

    var body: some View {{
        NavigationStack {{
            List(filtered) {{ item in
                Row(item: item, isSelected: selection == item.id)
                    .onTapGesture {{ selection = item.id }}
            }}
            .searchable(text: $query)
            .navigationTitle("Screen {n}")
            .toolbar {{
                ToolbarItem {{
                    Button("Reset") {{ selection = nil }}
                }}
            }}
        }}
    }}

    struct Row: View {{
        let item: Item{n}
        let isSelected: Bool

        var body: some View {{
            HStack {{
                VStack(alignment: .leading) {{
                    Text(item.title).font(.headline)
                    Text(Formatter{n}.price(item.cents)).font(.subheadline)
                }}
                Spacer()
                if isSelected {{
                    Badge{n}(text: "Selected")
                }}
            }}
            .padding(.vertical, 4)
        }}
    }}
}}

struct Container{n}<Content: View>: View {{
    let title: String
    @ViewBuilder let content: () -> Content

    var body: some View {{
        VStack(alignment: .leading, spacing: 8) {{
            Text(title).font(.title3)
            content()
        }}
        .padding()
    }}
}}

private struct Badge{n}: View {{
    let text: String

    var body: some View {{
        Text(text)
            .font(.caption)
            .padding(4)
            .background(.blue.opacity(0.2), in: Capsule())
    }}
}}

struct Item{n}: Identifiable, Codable {{
    var id: Int
    var title: String
    var cents: Int
    var tags: [String]
}}

enum Formatter{n} {{
    // @patchable
    static func price(_ cents: Int) -> String {{
        let whole = cents / 100
        let fraction = cents % 100
        return "$\\(whole).\\(fraction < 10 ? "0" : "")\\(fraction)"
    }}

    static func discount(_ cents: Int, percent: Int) -> Int {{
        cents - cents * percent / 100
    }}

    static func tagsLine(_ tags: [String]) -> String {{
        tags.sorted().joined(separator: ", ")
    }}
}}

#if DEBUG
struct Screen{n}Preview: View {{
    var body: some View {{
        Screen{n}(items: [Item{n}(id: 1, title: "One", cents: 1999, tags: ["a"])])
    }}
}}
#endif
"""


def generate(root: Path, files: int) -> int:
    sources = root / "Sources" / "BenchApp"
    sources.mkdir(parents=True)
    lines = 0
    for index in range(files):
        text = view_file(index)
        (sources / f"Screen{index}.swift").write_text(text)
        lines += text.count("\n")
    (root / "Package.swift").write_text(
        '// swift-tools-version:6.0\nimport PackageDescription\n'
        'let package = Package(name: "BenchApp", targets: [.executableTarget(name: "BenchApp")])\n')
    config = {
        "version": 1, "appKey": "bench", "apiBaseURL": "https://api.patchrelease.com/api/v1", "channel": "production",
        "project": {"kind": "swiftpm", "path": "Package.swift"},
        "targets": [{"name": "BenchApp", "sourceRoots": ["Sources/BenchApp"]}], "appTarget": "BenchApp",
        "include": ["**/*.swift"], "exclude": [], "patchableFunctions": [],
        "signing": {"privateKeyPath": str(root / "key"), "publicKeyFile": "Sources/BenchApp/Key.swift"},
    }
    (root / "patch.json").write_text(json.dumps(config, indent=2))
    return lines


def run_prepare(patchcli: Path, root: Path) -> tuple[dict, float, int]:
    """Runs `prepare --json`; returns its result, wall seconds and peak RSS in bytes."""
    start = time.perf_counter()
    process = subprocess.Popen([str(patchcli), "prepare", "--project", str(root), "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout = process.stdout.read()
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"prepare failed ({status}): {stderr.decode()}")
    envelope = json.loads(stdout)
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return envelope["result"], seconds, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--patchcli", type=Path, help="a release patchcli (default: build one into .build-bench)")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = parser.parse_args()

    patchcli = args.patchcli
    if patchcli is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "patchcli", "--scratch-path", ".build-bench"],
                       cwd=REPO_ROOT, check=True)
        patchcli = REPO_ROOT / ".build-bench" / "release" / "patchcli"

    work = args.keep or Path(tempfile.mkdtemp(prefix="prepare-bench-"))
    if args.keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    try:
        lines = generate(work, args.files)
        first, first_seconds, first_rss = run_prepare(patchcli, work)
        rerun, rerun_seconds, rerun_rss = run_prepare(patchcli, work)
        edited = work / "Sources" / "BenchApp" / "Screen0.swift"
        edited.write_text(edited.read_text().replace('Text("Screen 0")', 'Text("Screen zero")').replace(
            '.navigationTitle("Screen 0")', '.navigationTitle("Screen zero")'))
        one, one_seconds, one_rss = run_prepare(patchcli, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    ratio = first["plan_seconds"] / first["parse_seconds"] if first["parse_seconds"] else float("inf")
    print(f"synthetic app: {args.files} files, {lines} lines; {first['views']} views, {first['functions']} functions routed")
    print(f"{'run':<28}{'wall s':>9}{'plan s':>9}{'parse s':>9}{'parsed':>8}{'written':>9}{'peak RSS MiB':>14}")
    for name, result, seconds, rss in [("first (no cache)", first, first_seconds, first_rss),
                                       ("re-run, nothing changed", rerun, rerun_seconds, rerun_rss),
                                       ("re-run, one file edited", one, one_seconds, one_rss)]:
        print(f"{name:<28}{seconds:>9.3f}{result['plan_seconds']:>9.3f}{result['parse_seconds']:>9.3f}"
              f"{result['files_parsed']:>8}{len(result['changed_files']):>9}{rss / 2**20:>14.1f}")
    # "plan" is everything before the first write: reading, parsing, scanning, hashing, planning. The
    # first run then writes every rewritten source plus its saved original, each atomically and synced.
    print(f"first run: plan / parse time {ratio:.2f} (target <= {TARGET_FIRST_RUN_RATIO}); "
          f"wall {first_seconds:.3f} s including {first_seconds - first['plan_seconds']:.3f} s of synced writes")
    print(f"unchanged re-run: {rerun_seconds:.3f} s wall (target <= {TARGET_RERUN_SECONDS} s for 40k lines)")
    ok = ratio <= TARGET_FIRST_RUN_RATIO and rerun_seconds <= TARGET_RERUN_SECONDS and not rerun["changed_files"]
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
