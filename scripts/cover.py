#!/usr/bin/env python3
"""Cover letters of the series in patches/NN-name/.

In the scratch tree a series starts with an empty commit (the cover commit)
whose message is the cover letter: the subject, the text, and the trailers
"Series: NN-name" and, when not "PATCH", "Subject-Prefix: ...".

  cover.py message PATCHDIR   print the cover commit's message for the
                              series in PATCHDIR (from its 0000-cover-letter.patch)
  cover.py fill COVER MSG DATE
                              put the message MSG (a file) into the
                              git format-patch --cover-letter output COVER,
                              dated DATE (the cover commit's author date)
  cover.py date PATCHDIR      print the Date: of PATCHDIR's cover letter
  cover.py is-cover MSG       exit 0 when the commit message MSG (a file)
                              is a cover commit's; print its series name
"""
import os
import re
import sys

SHORTLOG = re.compile(r"^ftrace-sdo \(\d+\):$")
ZERO_PREREQ = "prerequisite-patch-id: " + "0" * 40


def split_message(text):
    """(subject, body, series, prefix) of a cover commit's message."""
    lines = text.rstrip("\n").split("\n")
    trailers = {}
    while lines and re.match(r"^(Series|Subject-Prefix): ", lines[-1]):
        key, val = lines.pop().split(": ", 1)
        trailers[key] = val
    while lines and not lines[-1].strip():
        lines.pop()
    subject = lines[0] if lines else ""
    body = "\n".join(lines[2:]) if len(lines) > 2 else ""
    return subject, body, trailers.get("Series"), trailers.get("Subject-Prefix", "PATCH")


def message(patchdir):
    path = os.path.join(patchdir, "0000-cover-letter.patch")
    with open(path) as f:
        text = f.read()
    head, _, rest = text.partition("\n\n")
    # Unfold the mail headers (RFC 5322 continuation lines).
    head = re.sub(r"\n[ \t]+", " ", head)
    m = re.search(r"^Subject: \[(.*?) 0+/\d+\] (.*)$", head, re.M)
    if not m:
        sys.exit(f"cover.py: {path}: no 'Subject: [PATCH 0/N]' line")
    prefix, subject = m.group(1), m.group(2)
    body = []
    for line in rest.split("\n"):
        if SHORTLOG.match(line):
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    out = subject + "\n"
    if body:
        out += "\n" + "\n".join(body) + "\n"
    out += "\nSeries: " + os.path.basename(os.path.normpath(patchdir)) + "\n"
    if prefix != "PATCH":
        out += "Subject-Prefix: " + prefix + "\n"
    sys.stdout.write(out)


def date(patchdir):
    path = os.path.join(patchdir, "0000-cover-letter.patch")
    with open(path) as f:
        head = f.read().partition("\n\n")[0]
    m = re.search(r"^Date: (.*)$", head, re.M)
    if not m:
        sys.exit(f"cover.py: {path}: no Date: line")
    print(m.group(1))


def fill(cover, msgfile, when):
    with open(msgfile) as f:
        subject, body, _, _ = split_message(f.read())
    with open(cover) as f:
        text = f.read()
    if "*** SUBJECT HERE ***" not in text or "*** BLURB HERE ***" not in text:
        sys.exit(f"cover.py: {cover}: not a git format-patch cover letter template")
    text = text.replace("*** SUBJECT HERE ***", subject, 1)
    text = text.replace("*** BLURB HERE ***", body, 1)
    # git dates a cover letter now; the cover commit's date keeps the
    # export of an unchanged series unchanged.
    text = re.sub(r"^Date: .*$", "Date: " + when, text, count=1, flags=re.M)
    # Cover commits are empty: their patch-id is all zeroes, not a prerequisite.
    text = "".join(l for l in text.splitlines(True) if l.rstrip("\n") != ZERO_PREREQ)
    with open(cover, "w") as f:
        f.write(text)


def is_cover(msgfile):
    with open(msgfile) as f:
        _, _, series, prefix = split_message(f.read())
    if not series or not re.match(r"^\d\d-[a-z0-9-]+$", series):
        sys.exit(1)
    print(series, prefix)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "message":
        message(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "fill":
        fill(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "date":
        date(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "is-cover":
        is_cover(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
