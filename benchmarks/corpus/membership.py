"""Which Swift files of an app some target compiles, read without patchcli: an Xcode project's
targets through the PyPI `pbxproj` reader (each target's Compile Sources build files, and its Xcode 16
synchronized folders less their `membershipExceptions`, plus files another target's folder lists as
an exception for it), and a Swift package's targets as every file under its `Sources` folder."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath


def _value(obj, key: str, default=None):
    try:
        return obj[key] if key in obj else default
    except (KeyError, TypeError):
        return default


def _ids(obj, key: str) -> list[str]:
    return [str(item) for item in (_value(obj, key) or [])]


def xcode_compiled(pbxproj_path: Path, relative_to: Path) -> set[str]:
    """The files (relative to `relative_to`) the project's native targets compile."""
    from pbxproj import XcodeProject
    project = XcodeProject.load(str(pbxproj_path))
    objects = project.objects
    project_folder = pbxproj_path.parent.parent  # SOURCE_ROOT: the folder holding the .xcodeproj
    root_object = objects[str(project.rootObject)]
    parent: dict[str, str] = {}
    for section in ("PBXGroup", "PBXVariantGroup", "PBXFileSystemSynchronizedRootGroup"):
        for group in objects.get_objects_in_section(section) if section in objects.get_sections() else []:
            for child in _ids(group, "children"):
                parent[child] = group.get_id()
    main_group = str(_value(root_object, "mainGroup"))
    resolved: dict[str, PurePosixPath | None] = {}

    def location(object_id: str) -> PurePosixPath | None:
        """The element's path on disk (relative to the project folder), None outside it."""
        if object_id in resolved:
            return resolved[object_id]
        obj = objects[object_id]
        tree = _value(obj, "sourceTree", "<group>")
        own = PurePosixPath(str(_value(obj, "path"))) if _value(obj, "path") is not None else PurePosixPath()
        if object_id == main_group:
            result = own
        elif tree == "<group>":
            base = location(parent[object_id]) if object_id in parent else None
            result = None if base is None else base / own
        elif tree == "SOURCE_ROOT":
            result = own
        elif tree == "<absolute>":
            result = PurePosixPath(os.path.relpath(str(own), project_folder))
        else:  # BUILT_PRODUCTS_DIR, SDKROOT, DEVELOPER_DIR: nothing of the app's sources
            result = None
        resolved[object_id] = result
        return result

    def relative(path: PurePosixPath) -> str:
        return os.path.normpath(os.path.relpath(project_folder / path, relative_to))

    compiled: set[str] = set()
    # Exception sets by (folder, target): files of that folder whose membership in that target is
    # the opposite of the folder's.
    exceptions: dict[tuple[str, str], list[str]] = {}
    for folder in objects.get_objects_in_section("PBXFileSystemSynchronizedRootGroup") \
            if "PBXFileSystemSynchronizedRootGroup" in objects.get_sections() else []:
        for exception_id in _ids(folder, "exceptions"):
            exception = objects[exception_id]
            if _value(exception, "isa") != "PBXFileSystemSynchronizedBuildFileExceptionSet":
                continue
            key = (folder.get_id(), str(_value(exception, "target")))
            exceptions.setdefault(key, []).extend(str(item) for item in _value(exception, "membershipExceptions") or [])
    targets = objects.get_objects_in_section("PBXNativeTarget")
    for target in targets:
        for phase_id in _ids(target, "buildPhases"):
            phase = objects[phase_id]
            if _value(phase, "isa") != "PBXSourcesBuildPhase":
                continue
            for build_file_id in _ids(phase, "files"):
                reference = _value(objects[build_file_id], "fileRef")
                path = location(str(reference)) if reference is not None and str(reference) in objects else None
                if path is not None and path.suffix == ".swift":
                    compiled.add(relative(path))
        synchronized = set(_ids(target, "fileSystemSynchronizedGroups"))
        for folder_id in synchronized:
            folder = location(folder_id)
            if folder is None:
                continue
            excluded = {str(folder / item) for item in exceptions.get((folder_id, target.get_id()), [])}
            for walk_folder, _, files in os.walk(project_folder / folder):
                for name in files:
                    if name.endswith(".swift"):
                        path = PurePosixPath(os.path.relpath(os.path.join(walk_folder, name), project_folder))
                        if str(path) not in excluded:
                            compiled.add(relative(path))
    # A folder another target synchronizes can list files for a target that does not: those it compiles.
    member_folders = {(folder_id, target.get_id()) for target in targets for folder_id in _ids(target, "fileSystemSynchronizedGroups")}
    for (folder_id, target_id), items in exceptions.items():
        folder = location(folder_id)
        if folder is None or (folder_id, target_id) in member_folders:
            continue
        compiled.update(relative(folder / item) for item in items if item.endswith(".swift"))
    return compiled


PATH_ARGUMENT = re.compile(r'\bpath:\s*"([^"\\]*)"')


def package_target_folders(package: Path) -> list[PurePosixPath]:
    """The folders a package's targets compile, relative to it: `Sources`, and every `path:` the
    manifest gives a target (a literal; `"."` is the package folder itself)."""
    manifest = (package / "Package.swift").read_text(errors="replace")
    return [PurePosixPath("Sources")] + [PurePosixPath(os.path.normpath(path)) for path in PATH_ARGUMENT.findall(manifest)]


def package_compiled(path: str, app: Path) -> bool:
    """Whether `path` (relative to `app`) is in a target folder of the nearest Swift package holding
    it: SwiftPM compiles every Swift file of a target's folder (the manifest itself is no target's)."""
    parts = PurePosixPath(path).parts
    for depth in range(len(parts) - 1, -1, -1):
        package = app.joinpath(*parts[:depth])
        if (package / "Package.swift").exists():
            inside = PurePosixPath(*parts[depth:])
            return str(inside) != "Package.swift" and any(
                str(folder) == "." or inside.is_relative_to(folder) for folder in package_target_folders(package))
    return False


def compiled_files(app: Path, projects: list[Path], paths: list[str]) -> set[str]:
    """Of `paths` (relative to `app`), those some target compiles: a target of one of the Xcode
    `projects`, or a Swift package's target."""
    compiled: set[str] = set()
    for project in projects:
        compiled |= xcode_compiled(project / "project.pbxproj", app)
    return {path for path in paths if path in compiled or package_compiled(path, app)}
