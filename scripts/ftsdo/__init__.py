"""The harness's results: KTAP, a guest's results, the verdict, make bench."""
