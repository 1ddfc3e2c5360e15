#!/usr/bin/env python3
"""plugin_headers.py - plug-ins include only public headers.

Every C file under a plug-in folder (controllers, memory stages,
schedulers, L1 organisations, replacement policies, index functions,
analyses) may include the public API (include/warpcache/), its family's seam
header and helpers of its own folder, but never - directly or through another
header - a header private to the engine: those are the engine's records, and
a plug-in that reads them breaks whenever the engine changes its layout
(docs/design.md, "What a plug-in may include").

    python3 scripts/plugin_headers.py [ROOT]

prints `FILE:LINE: includes the engine-private header H (via A -> B)` for
each violation and exits 1, or prints how many files it checked and exits 0.
The two lists below are the one place that says what is private and what is
a plug-in.
"""

import os
import re
import sys

# Plug-in folders, relative to the repository root.
PLUGIN_DIRS = [
    "src/core/controllers",
    "src/core/stages",
    "src/core/schedulers",
    "src/cache/org",
    "src/cache/repl",
    "src/cache/index",
    "src/analysis",
]

# Headers private to the engine (paths as they are included, relative to
# src/); a trailing '/' names a whole folder.
PRIVATE = [
    "core/gpu.h",  # the engine's SM and simulator records
    "core/memstage_sm.h",  # (gone: the stage API is warpcache/stage.h)
    "core/mem_issue.h",  # memory instructions issued ahead of the stage
    "core/events.h",  # the event heap
    "core/memstage.h",  # the stage registry
    "core/rdhist.h",  # the reuse-distance listener of -l1_rd_hist
    "mem/",  # the memory side: interconnect, L2, DRAM
    "config/",  # the option parser's internals
    "cli/",  # the program
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def private(name):
    return any(name == p or (p.endswith("/") and name.startswith(p)) for p in PRIVATE)


def resolve(root, name):
    """The file a quoted include names (the build's -Isrc -Iinclude), or None."""
    for base in ("src", "include"):
        path = os.path.join(root, base, name)
        if os.path.isfile(path):
            return path
    return None


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1)


def violations(root, path):
    """(line, private header, chain) for each private header path reaches."""
    found = []
    for line, name in includes(path):
        seen = set()
        stack = [(name, [name])]
        while stack:
            inc, chain = stack.pop()
            if inc in seen:
                continue
            seen.add(inc)
            if private(inc):
                found.append((line, inc, chain))
                continue
            target = resolve(root, inc)
            if target:
                stack.extend((sub, chain + [sub]) for _, sub in includes(target))
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files, bad = 0, 0
    for d in PLUGIN_DIRS:
        top = os.path.join(root, d)
        if not os.path.isdir(top):
            print(f"{d}: no such plug-in folder (scripts/plugin_headers.py lists it)")
            return 2
        for dirpath, _, names in sorted(os.walk(top)):
            for fname in sorted(names):
                if not fname.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, fname)
                files += 1
                seen = set()
                for line, inc, chain in violations(root, path):
                    if (line, inc) in seen:
                        continue
                    seen.add((line, inc))
                    bad += 1
                    via = f" (via {' -> '.join(chain)})" if len(chain) > 1 else ""
                    rel = os.path.relpath(path, root)
                    print(f"{rel}:{line}: includes the engine-private header {inc}{via}")
    if bad:
        print(f"{bad} engine-private include(s) in plug-ins; use include/warpcache/ instead")
        return 1
    print(f"{files} plug-in files include only public headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
