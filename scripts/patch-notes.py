#!/usr/bin/env python3
"""Print the notes of a patch made by git format-patch --notes.

Text that is not part of the commit message (checkpatch findings and why
they stay, test logs) is kept in the scratch tree as git notes on the
commit; export.sh writes them below the "---" line, where git am leaves
them out of the commit, and apply_series_to() (lib.sh) gives them back to
the commit with this script.

  patch-notes.py PATCH    print PATCH's notes (nothing when it has none)
"""
import sys


def notes(lines):
    """The note's lines, unindented, from a format-patch file's lines."""
    try:
        i = lines.index("---")
    except ValueError:
        return []
    i += 1
    while i < len(lines) and lines[i] == "":
        i += 1
    if i >= len(lines) or lines[i] != "Notes:":
        return []
    out = []
    for line in lines[i + 1:]:
        if line.startswith("    "):
            out.append(line[4:])
        elif line == "":
            out.append("")
        else:
            break
    while out and out[-1] == "":
        out.pop()
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        text = notes(f.read().split("\n"))
    if text:
        print("\n".join(text))


if __name__ == "__main__":
    main()
