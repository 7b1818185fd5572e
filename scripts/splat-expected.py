#!/usr/bin/env python3
"""Print a kernel log without the reports a test announced (expected
WARNINGs, allocation failures of a fault sweep): scripts/ftsdo/expected.py
says how a test announces them.
Usage: splat-expected.py LOG
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftsdo.expected import filter_lines  # noqa: E402

if __name__ == '__main__':
    with open(sys.argv[1], errors='replace') as f:
        sys.stdout.writelines(filter_lines(f))
