#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare as a dependency in Package.swift, or when an example
imports a module of this package that no library product vends.

A module reached only transitively builds today and breaks when a dependency changes its own dependencies, so every
import is declared. Toolchain modules (Foundation, Testing, Glibc, ...) need no declaration. A provider copies the
examples into their own package, where only WOPIKit's library products can be imported (and, with
`packageAccess: false` in Package.swift, only their public API is used). Run from the package root.
"""
import glob
import json
import os
import re
import subprocess
import sys

TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Testing", "XCTest",
             "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization", "_Concurrency", "os", "Android"}
IMPORT = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+|public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)*"
                    r"import\s+(?:struct\s+|class\s+|enum\s+|protocol\s+|func\s+|var\s+|let\s+|typealias\s+)?"
                    r"([A-Za-z_]\w*)")

description = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], check=True,
                                        capture_output=True, text=True).stdout)
modules = {t["name"]: t.get("c99name", t["name"].replace("-", "_")) for t in description["targets"]}
vended = {modules[name] for product in description["products"] if "library" in product["type"]
          for name in product["targets"]}
failures = []
for target in description["targets"]:
    declared = {modules.get(d, d) for d in target.get("target_dependencies", [])}
    declared |= set(target.get("product_dependencies", []))
    declared.add(modules[target["name"]])
    for path in sorted(glob.glob(os.path.join(target["path"], "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as source:
            for number, line in enumerate(source, 1):
                match = IMPORT.match(line)
                if match and match.group(1) not in declared | TOOLCHAIN:
                    failures.append(f"{path}:{number}: {target['name']} imports {match.group(1)}, "
                                    f"which is not among its dependencies in Package.swift")
                elif match and target["path"].startswith("Examples/") and "@testable" in line.split("import")[0]:
                    failures.append(f"{path}:{number}: the example {target['name']} uses @testable import, which a "
                                    f"release build of a provider's package cannot")
                elif (match and target["path"].startswith("Examples/") and match.group(1) in modules.values()
                      and match.group(1) not in vended | {modules[target["name"]]}):
                    failures.append(f"{path}:{number}: the example {target['name']} imports {match.group(1)}, "
                                    f"which no library product of this package vends: a copy outside it cannot")
print("\n".join(failures) or "every import is a declared dependency; the examples import library products only")
sys.exit(1 if failures else 0)
