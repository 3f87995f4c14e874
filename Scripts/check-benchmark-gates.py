#!/usr/bin/env python3
"""The project's CI gate on work that does not depend on the machine's load.

For each GateWork of Benchmarks/ (grid query, NMEA and GPX decoding, the
100k-fix replay) it checks two committed figures:

  * heap allocations, through package-benchmark's static thresholds
    (`swift package benchmark thresholds check --target GateBenchmarks`,
    files in Benchmarks/Thresholds/, tolerance set in GateBenchmarks.swift);
  * instructions, counted by callgrind on one run of the same work
    (`gate-count`), against Benchmarks/Thresholds/callgrind-instructions.json.
    Callgrind counts are the same from run to run (±0.01 %) and on a busy
    machine, so the tolerance can be small; perf counters, where a machine
    has them, are reported by the benchmarks but not needed.

Exit 0 when every figure is within its tolerance, 1 when one is not (the
figure named, with the command that rewrites the thresholds after an
intended change), 2 when the gate cannot run.

    Scripts/check-benchmark-gates.py            check (what .ci/run does)
    Scripts/check-benchmark-gates.py --update   rewrite both thresholds
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARKS = os.path.join(ROOT, "Benchmarks")
THRESHOLDS = os.path.join(BENCHMARKS, "Thresholds")
INSTRUCTIONS_FILE = os.path.join(THRESHOLDS, "callgrind-instructions.json")
DEFAULT_TOLERANCE_PERCENT = 5.0


def log(message):
    print(f"[gates] {message}", flush=True)


def run(command, **options):
    log("$ " + " ".join(command))
    return subprocess.run(command, cwd=options.pop("cwd", BENCHMARKS), **options)


def build_gate_count():
    command = ["swift", "build", "-c", "release", "--product", "gate-count"]
    built = run(command)
    if built.returncode != 0:
        # swift-build itself now and then dies in libdispatch's event loop
        # on Linux (signal 11, swiftlang/swift#87033): once more, and a
        # build that really fails fails again.
        log(f"the build failed (exit {built.returncode}); building once more")
        built = run(command)
    if built.returncode != 0:
        sys.exit(2)
    path = run(["swift", "build", "-c", "release", "--show-bin-path"], capture_output=True, text=True)
    return os.path.join(path.stdout.strip(), "gate-count")


def without_debug_info(executable, folder):
    """A copy of `executable` and of the Swift libraries it loads, without
    their DWARF: Debian 12's valgrind 3.19 cannot read Swift 6.3's DWARF 5
    and gives up. Symbols stay, so --toggle-collect still finds its frame."""
    copy = os.path.join(folder, os.path.basename(executable))
    subprocess.run(["objcopy", "--strip-debug", executable, copy], check=True)
    listing = subprocess.run(["ldd", executable], capture_output=True, text=True, check=True).stdout
    for library in re.findall(r"=> (\S+) \(", listing):
        if "/swift/" in library or library.startswith(BENCHMARKS):
            subprocess.run(
                ["objcopy", "--strip-debug", library, os.path.join(folder, os.path.basename(library))], check=True
            )
    return copy


def count_instructions(executable, work, folder):
    """The instructions of one run of `work`, inside its measured region."""
    out = os.path.join(folder, f"callgrind.{work}.out")
    command = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=repeat_measured_region",
        f"--callgrind-out-file={out}", executable, work,
    ]
    environment = dict(os.environ, LD_LIBRARY_PATH=folder)
    started = time.monotonic()
    result = run(command, capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr[-4000:])
        log(f"{work}: gate-count failed under callgrind (exit {result.returncode})")
        sys.exit(2)
    with open(out) as profile:
        totals = [line for line in profile if line.startswith("totals:")]
    count = int(totals[0].split()[1])
    log(f"{work}: {result.stdout.strip()}; {count:,} instructions ({time.monotonic() - started:.0f} s under callgrind)")
    return count


def check_allocations(update):
    command = ["swift", "package", "--allow-writing-to-package-directory", "benchmark", "thresholds",
               "update" if update else "check", "--target", "GateBenchmarks", "--path", "Thresholds", "--no-progress"]
    result = run(command)
    if result.returncode != 0 and not update:
        log("allocations: a figure left its tolerance (see the table above). After an intended change: "
            "Scripts/check-benchmark-gates.py --update, and commit Benchmarks/Thresholds/")
    return result.returncode == 0


def check_instructions(counts, update):
    if update:
        with open(INSTRUCTIONS_FILE, "w") as file:
            json.dump({"tolerance_percent": DEFAULT_TOLERANCE_PERCENT, "instructions": counts}, file, indent=2)
            file.write("\n")
        log(f"wrote {os.path.relpath(INSTRUCTIONS_FILE, ROOT)}")
        return True
    with open(INSTRUCTIONS_FILE) as file:
        committed = json.load(file)
    tolerance = committed["tolerance_percent"]
    passed = True
    for work, count in counts.items():
        baseline = committed["instructions"].get(work)
        if baseline is None:
            log(f"instructions: {work}: no committed threshold (run --update)")
            passed = False
            continue
        change = 100.0 * (count - baseline) / baseline
        holds = abs(change) <= tolerance
        passed = passed and holds
        verdict = "ok" if holds else ("REGRESSION" if change > 0 else "IMPROVEMENT: update the threshold")
        log(f"instructions: {work}: {count:,} vs {baseline:,} committed ({change:+.2f} %, "
            f"allowed ±{tolerance:g} %) {verdict}")
    if not passed:
        log("instructions: a figure left its tolerance. After an intended change: "
            "Scripts/check-benchmark-gates.py --update, and commit Benchmarks/Thresholds/")
    return passed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite the committed thresholds from this run")
    arguments = parser.parse_args()
    for tool in ["valgrind", "objcopy", "ldd", "swift"]:
        if shutil.which(tool) is None:
            log(f"{tool} is not installed (Scripts/setup.sh installs valgrind)")
            sys.exit(2)
    started = time.monotonic()
    allocations = check_allocations(arguments.update)
    executable = build_gate_count()
    with tempfile.TemporaryDirectory(prefix="repeat-gates-") as folder:
        stripped = without_debug_info(executable, folder)
        works = subprocess.run([executable, "--list"], capture_output=True, text=True, check=True).stdout.split()
        counts = {work: count_instructions(stripped, work, folder) for work in works}
    instructions = check_instructions(counts, arguments.update)
    passed = allocations and instructions
    log(f"{'passed' if passed else 'FAILED'} in {time.monotonic() - started:.0f} s")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
