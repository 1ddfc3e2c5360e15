#!/usr/bin/env python3
"""row.py - one table row from a warpcache JSON output on stdin: a label, then NAME=value
for each dotted key (kernels.0.l1.read_miss_rate; a number indexes a list).  Used by
scripts/reproduce.py so that the commands it prints can be pasted as they are.

    warpcache run ... --json - | python3 scripts/reproduce/row.py LABEL KEY...

Exit status 2 on a key the JSON does not have."""
import json
import sys


def get(doc, key):
    for part in key.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    doc = json.load(sys.stdin)
    cells = []
    for key in argv[1:]:
        try:
            v = get(doc, key)
        except (KeyError, IndexError, ValueError, TypeError):
            sys.stderr.write("row.py: no key '%s' in the JSON\n" % key)
            return 2
        name = key.rsplit(".", 1)[-1]
        cells.append("%s %s" % (name, ("%.4f" % v) if isinstance(v, float) else v))
    print("%-56s %s" % (argv[0], "  ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
