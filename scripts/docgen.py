#!/usr/bin/env python3
"""docgen.py - the tables in docs/ are the output of the commands shown above them.

A page marks a command whose output it shows with a fenced block whose info string is
"sh docgen":

    ```sh docgen
    build/warpcache compare --config configs/seeds/004.config --designs base,mrpb -w ...
    ```

`docgen.py run PAGE...` (make docs) runs each such block from the repository root with
sh -e and writes what it printed on stdout into the fenced block that follows, under a
stamp line:

    <!-- docgen: output of the command above; sha=0123abcd... results=89ab... -->

`sha` is a hash of the command and the output together, so a table edited by hand, or
a command edited without re-running it, no longer matches.  `results` is the results
fingerprint of the simulator that printed it: the golden net's (tests/golden/FINGERPRINT,
the hash of every design's committed results on small workloads).  `make check` compares
the golden net with the simulator (tests/cli_golden.sh), so a change that moves results
must run `make golden-update`, which moves the fingerprint, which makes every page stale
until `make docs` re-runs it.
`docgen.py check PAGE...` (make check) verifies both in a second, without running
anything, so a page can never show a table that the current simulator would not print
without CI saying so; `make docs` is the one command that brings it back.

Variables: a block may set shell variables (`W="-w ..."`) that later blocks of the same
page use; the assignment lines of every earlier block of the page are run first.  `OUT`
is a temporary folder for the files a page's commands write (one per page, so a block can
read what an earlier block of its page wrote).  DOCGEN_BIN, when set, replaces the pages'
`build/warpcache` (make docs sets it to $(BUILD)/warpcache).  Standard library only.
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPEN = "```sh docgen"
STAMP = re.compile(r"^<!-- docgen: output of the command above; sha=([0-9a-f]+) results=([0-9a-f]+|none) -->$")
# a line that is one shell assignment and nothing else (not `VAR=x command ...`)
ASSIGN = re.compile(r"""^[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|[^\s"'\\]*)\s*$""")


GOLDEN_FINGERPRINT = os.path.join("tests", "golden", "FINGERPRINT")


def binary():
    return os.environ.get("DOCGEN_BIN") or os.path.join(ROOT, "build", "warpcache")


def results_fingerprint():
    """The golden net's fingerprint (tests/golden/FINGERPRINT: the hash of the committed
    results of every design on small workloads, which tests/cli_golden.sh checks against
    the simulator).  DOCGEN_RESULTS replaces it: tests/cli_docgen.sh tests the tool itself
    with it."""
    if os.environ.get("DOCGEN_RESULTS"):
        return os.environ["DOCGEN_RESULTS"]
    path = os.path.join(ROOT, GOLDEN_FINGERPRINT)
    if not os.path.exists(path):
        return "none"
    return open(path).read().strip()[:16]


def block_sha(command, output):
    h = hashlib.sha256()
    h.update(command.encode())
    h.update(b"\0")
    h.update(output.encode())
    return h.hexdigest()[:16]


class Block:
    """One "sh docgen" block of a page and the output block after it (if any)."""

    def __init__(self, line, command, out_start, out_end, sha, results, output):
        self.line = line  # 1-based line of the opening fence
        self.command = command  # text between the fences, with a final newline
        self.out_start = out_start  # index of the stamp line, or None
        self.out_end = out_end  # index one past the output's closing fence
        self.sha = sha
        self.results = results
        self.output = output


def fence_end(lines, i, path):
    """Index of the closing fence of the block opened at lines[i]."""
    j = i + 1
    while j < len(lines) and lines[j].rstrip("\n") != "```":
        j += 1
    if j == len(lines):
        raise SystemExit("%s:%d: code block not closed" % (path, i + 1))
    return j


def parse(path, lines):
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip("\n") != OPEN:
            i += 1
            continue
        end = fence_end(lines, i, path)
        command = "".join(lines[i + 1:end])
        k = end + 1
        while k < len(lines) and lines[k].strip() == "":
            k += 1
        m = STAMP.match(lines[k].rstrip("\n")) if k < len(lines) else None
        if m and k + 1 < len(lines) and lines[k + 1].startswith("```"):
            oend = fence_end(lines, k + 1, path)
            output = "".join(lines[k + 2:oend])
            blocks.append(Block(i + 1, command, k, oend + 1, m.group(1), m.group(2), output))
            i = oend + 1
        else:
            blocks.append(Block(i + 1, command, None, end + 1, None, None, None))
            i = end + 1
    return blocks


def assignments(blocks, upto):
    pre = []
    for b in blocks[:upto]:
        pre += [l for l in b.command.splitlines(True) if ASSIGN.match(l)]
    return "".join(pre)


def run_block(path, b, prelude, out):
    if True:
        env = dict(os.environ, OUT=out, LC_ALL="C")
        script = prelude + b.command
        # the pages say build/warpcache; `make docs BUILD=...` runs another build's binary
        binary = os.environ.get("DOCGEN_BIN")
        if binary:
            script = re.sub(r"(^|[\s;|&(])build/warpcache\b", lambda m: m.group(1) + binary, script,
                            flags=re.M)
        p = subprocess.run(["sh", "-e", "-c", script], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("%s:%d: the command exited with status %d" % (path, b.line, p.returncode))
    return p.stdout


def render(b, output, fingerprint):
    if output and not output.endswith("\n"):
        output += "\n"
    stamp = "<!-- docgen: output of the command above; sha=%s results=%s -->\n" % (
        block_sha(b.command, output), fingerprint)
    return ["\n", stamp, "```text\n", output, "```\n"]


def cmd_run(pages, only_line=None, from_line=None):
    fingerprint = results_fingerprint()
    failed = None
    total = sum(len(parse(p, open(p).readlines())) for p in pages)
    done = 0
    for path in pages:
        lines = open(path).readlines()
        blocks = parse(path, lines)
        # rewrite from the last block up so earlier indices stay valid
        results = {}
        tmp = tempfile.TemporaryDirectory(prefix="docgen.")
        for n, b in enumerate(blocks):
            done += 1
            if only_line is not None and b.line != only_line:
                continue
            if from_line is not None and b.line < from_line:
                continue
            t0 = time.time()
            sys.stderr.write("docgen [%d/%d] %s:%d ..." % (done, total, path, b.line))
            sys.stderr.flush()
            try:
                results[n] = run_block(path, b, assignments(blocks, n), tmp.name)
            except SystemExit as e:
                failed = e  # keep the tables already made: write them, then stop
                break
            sys.stderr.write(" %.0f s\n" % (time.time() - t0))
        tmp.cleanup()
        for n in sorted(results, reverse=True):
            b = blocks[n]
            start = b.out_end if b.out_start is None else b.out_start
            # the blank lines between the command and the stamp are part of what is replaced
            cut = start
            while b.out_start is not None and cut > 0 and lines[cut - 1].strip() == "":
                cut -= 1
            lines[cut:b.out_end] = render(b, results[n], fingerprint)
        with open(path + ".docgen.tmp", "w") as f:
            f.writelines(lines)
        os.replace(path + ".docgen.tmp", path)
        if failed:
            raise failed


def cmd_check(pages):
    fingerprint = results_fingerprint()
    bad = 0
    count = 0
    for path in pages:
        for b in parse(path, open(path).readlines()):
            count += 1
            where = "%s:%d" % (path, b.line)
            if b.output is None:
                print("%s: no output under this command: run `make docs`" % where)
                bad += 1
            elif block_sha(b.command, b.output) != b.sha:
                print("%s: the output under this command is not what docgen wrote for it "
                      "(edited by hand, or the command changed): run `make docs`" % where)
                bad += 1
            elif b.results != fingerprint:
                print("%s: printed by a simulator whose results differ from today's "
                      "(golden fingerprint %s, now %s): run `make docs`"
                      % (where, b.results, fingerprint))
                bad += 1
    print("docgen: %d generated tables in %d pages, %d stale" % (count, len(pages), bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2 or argv[1] not in ("run", "check", "list"):
        sys.stderr.write("usage: docgen.py run [--line N | --from N] PAGE... | check PAGE... | list PAGE...\n")
        return 2
    args = argv[2:]
    only = start = None
    if args[:1] in (["--line"], ["--from"]):
        if len(args) < 2 or not args[1].isdigit():
            sys.stderr.write("docgen: %s needs a line number\n" % args[0])
            return 2
        if args[0] == "--line":
            only = int(args[1])
        else:
            start = int(args[1])
        args = args[2:]
    for p in args:
        if not os.path.isfile(p):
            sys.stderr.write("docgen: %s: no such page\n" % p)
            return 2
    if argv[1] == "run":
        cmd_run(args, only, start)
        return 0
    if argv[1] == "list":
        for p in args:
            for b in parse(p, open(p).readlines()):
                print("%s:%d %s" % (p, b.line, b.command.strip().splitlines()[-1][:100]))
        return 0
    return cmd_check(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
