#!/usr/bin/env python3
"""The flake hunt's summary (scripts/test --stress N): reads the JUnit XML of each round that
ctest wrote and prints every test that failed in at least one round, how many times, and the
output of its first failure. Exit 1 when any test failed, 0 when none did.

    scripts/stress_report.py build/stress/round-*.xml
"""
import sys
import xml.etree.ElementTree as ET

TAIL_LINES = 60  # of a failed test's output: where the failed assertion and its figures are


def failures_of(cases):
    """Yields (name, output) for each test that failed among one round's test cases."""
    for case in cases:
        failed = case.get("status") == "fail" or any(
            child.tag in ("failure", "error") for child in case)
        if not failed:
            continue
        out = case.findtext("system-out") or ""
        for child in case:
            if child.tag in ("failure", "error") and child.get("message"):
                out += "\n" + child.get("message")
        yield case.get("name"), out


def main(paths):
    if not paths:
        print("stress_report: give the rounds' JUnit files", file=sys.stderr)
        return 2
    tests = 0
    runs = skipped = 0
    failed = {}  # name -> (rounds failed, output of the first failure)
    for path in paths:
        cases = list(ET.parse(path).getroot().iter("testcase"))
        tests = max(tests, len(cases))
        runs += len(cases)
        skipped += sum(1 for c in cases if c.get("status") in ("notrun", "disabled")
                       or c.find("skipped") is not None)
        for name, out in failures_of(cases):
            rounds, first = failed.get(name, (0, out))
            failed[name] = (rounds + 1, first)
    print(f"stress: {len(paths)} rounds of {tests} tests; {len(failed)} failed at least once")
    for name, (rounds, out) in sorted(failed.items()):
        print(f"\n==== {name}: failed in {rounds} of {len(paths)} rounds; first failure's output:")
        lines = out.rstrip().splitlines()
        if len(lines) > TAIL_LINES:
            print(f"[... {len(lines) - TAIL_LINES} lines before]")
        print("\n".join(lines[-TAIL_LINES:]))
    failures = sum(r for r, _ in failed.values())
    print(f"\n{runs - failures - skipped} passed, {failures} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
