"""Tests of the independent compiled-files reader: `python3 -m unittest discover -s benchmarks/corpus`."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

import membership

# Two targets: App lists Shared/Listed.swift in Compile Sources (Shared/OnDisk.swift is in the folder
# but in no target) and synchronizes the folder Features less Features/Mac.swift; Widget does not
# synchronize Features but the folder's exception set for Widget gives it Features/Shared.swift; the
# folder Extras no target synchronizes, its exception set for Widget gives Widget Extras/Glance.swift.
PBXPROJ = """// !$*UTF8*$!
{
\tarchiveVersion = 1;
\tobjectVersion = 77;
\tobjects = {
\t\tBF1 = {isa = PBXBuildFile; fileRef = FR1; };
\t\tFR1 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Listed.swift; sourceTree = "<group>"; };
\t\tG0 = {isa = PBXGroup; children = (G1, SY1, SY2, ); sourceTree = "<group>"; };
\t\tG1 = {isa = PBXGroup; children = (FR1, ); path = Shared; sourceTree = "<group>"; };
\t\tSY1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EX1, EX2, ); path = Features; sourceTree = "<group>"; };
\t\tSY2 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EX3, ); path = Extras; sourceTree = "<group>"; };
\t\tEX3 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Glance.swift, ); target = T2; };
\t\tEX1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Mac.swift, ); target = T1; };
\t\tEX2 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Shared.swift, ); target = T2; };
\t\tSP1 = {isa = PBXSourcesBuildPhase; files = (BF1, ); };
\t\tSP2 = {isa = PBXSourcesBuildPhase; files = ( ); };
\t\tT1 = {isa = PBXNativeTarget; buildPhases = (SP1, ); fileSystemSynchronizedGroups = (SY1, ); name = App; };
\t\tT2 = {isa = PBXNativeTarget; buildPhases = (SP2, ); name = Widget; };
\t\tP1 = {isa = PBXProject; mainGroup = G0; targets = (T1, T2, ); };
\t};
\trootObject = P1;
}
"""


class MembershipTests(unittest.TestCase):
    def test_compile_sources_synchronized_folders_exceptions_and_packages(self) -> None:
        with tempfile.TemporaryDirectory() as directory:
            app = Path(directory)
            files = ["Shared/Listed.swift", "Shared/OnDisk.swift", "Features/Home.swift", "Features/Mac.swift",
                     "Features/Shared.swift", "Extras/Glance.swift", "Extras/Other.swift", "Kit/Package.swift", "Kit/Sources/Kit/Model.swift", "Kit/Scripts/Tool.swift",
                     "Data/Package.swift", "Data/Birds/Bird.swift"]
            for path in files:
                (app / path).parent.mkdir(parents=True, exist_ok=True)
                (app / path).write_text("")
            (app / "Kit/Package.swift").write_text('let package = Package(name: "Kit", targets: [.target(name: "Kit")])')
            (app / "Data/Package.swift").write_text('let package = Package(name: "Data", targets: [.target(name: "Data", path: ".")])')
            (app / "App.xcodeproj").mkdir()
            (app / "App.xcodeproj/project.pbxproj").write_text(PBXPROJ)

            compiled = membership.compiled_files(app, [app / "App.xcodeproj"], files)
            self.assertEqual(sorted(compiled), ["Data/Birds/Bird.swift", "Extras/Glance.swift", "Features/Home.swift", "Features/Shared.swift",
                                                "Kit/Sources/Kit/Model.swift", "Shared/Listed.swift"])
            # Mac.swift is excluded from App, the only target synchronizing Features.
            self.assertNotIn("Features/Mac.swift", membership.xcode_compiled(app / "App.xcodeproj/project.pbxproj", app))


if __name__ == "__main__":
    unittest.main()
