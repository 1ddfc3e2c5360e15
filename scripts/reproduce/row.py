#!/usr/bin/env python3
"""row.py - one table row from a warpcache JSON output on stdin: a label, then NAME=value
for each dotted key (kernels.0.l1.read_miss_rate; a number indexes a list), or for
timeline:KEY the values of the run's timeline events named KEY (joined by '/', '-' if
none: DWT-CS's dwt_limit, say).  NAME=KEY prints the value under NAME instead of the
key's last part (for two keys that end alike: k0=kernels.0.cycles k1=kernels.1.cycles).
Used by scripts/reproduce.py so that the commands it prints can be pasted as they are;
the label may not contain blanks (reproduce.py reads the rows back).

    warpcache run ... --json - | python3 scripts/reproduce/row.py LABEL [NAME=]KEY...

Exit status 2 on a key the JSON does not have."""
import json
import sys


def get(doc, key):
    if key.startswith("timeline:"):
        # a run without controllers has no timeline: no events of any key
        vals = [str(e["value"]) for e in doc.get("timeline") or [] if e.get("key") == key[9:]]
        return "/".join(vals) if vals else "-"
    return walk(doc, key.split("."))


def walk(doc, parts):
    """doc[parts...]; a dict's key may itself contain dots (totals.extra holds
    contention.intra_warp_mpki), so the longest key that is present wins."""
    if not parts:
        return doc
    if isinstance(doc, list):
        return walk(doc[int(parts[0])], parts[1:])
    for n in range(len(parts), 0, -1):
        k = ".".join(parts[:n])
        if k in doc:
            return walk(doc[k], parts[n:])
    raise KeyError(parts[0])


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    if not argv[0] or any(c.isspace() for c in argv[0]):
        sys.stderr.write("row.py: the label '%s' is empty or has blanks\n" % argv[0])
        return 2
    doc = json.load(sys.stdin)
    cells = []
    for arg in argv[1:]:
        alias, _, key = arg.rpartition("=")
        try:
            v = get(doc, key)
        except (KeyError, IndexError, ValueError, TypeError):
            sys.stderr.write("row.py: no key '%s' in the JSON\n" % key)
            return 2
        name = alias or (key[9:] if key.startswith("timeline:") else key.rsplit(".", 1)[-1])
        cells.append("%s %s" % (name, ("%.4f" % v) if isinstance(v, float) else v))
    print("%-56s %s" % (argv[0], "  ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
