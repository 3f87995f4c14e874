#!/usr/bin/env python3
"""Issue 17's targets, measured interleaved on this machine.

    Scripts/bench-scaling-ratios.py DATA_DIR [--rounds N] [--jobs J] [--floor PATH] [BINARY ...]
    Scripts/bench-scaling-ratios.py DATA_DIR --instructions [BINARY ...]

Each round runs, for each BINARY (default .build/release/repeat-sim), the
replays of the 1M-fix NMEA feed against 10 000 regions with 1 000 and then
100 000 tasks, the first again with --jobs 1, and the one-device CSV walk
against the same walk cut into 100 000 devices of 10 fixes (1 000 tasks);
then the C floor parser on the same feed (--floor, default
DATA_DIR/build/nmea_floor, which Scripts/bench-replay.sh builds; left out
when absent). Runs alternate, so a load that comes and goes on a shared
machine falls on both sides of each ratio and on every throughput.
Prints best / first quartile / median wall time in ms, their ratios (the
targets: at most 1.3), the fixes per second of the 1 000-task replay at
--jobs J and at --jobs 1 and of the floor parser (the targets: 2.5M with
two jobs, 1.5M with one), and the largest peak RSS. Each command runs
once, untimed, before the rounds, so that no timed run reads its files
from disk.

--instructions counts instead of timing: each pair's two replays run once
at --jobs 1 under valgrind's callgrind (on a copy of BINARY without debug
information, which this valgrind cannot read), two at a time, and their
instruction counts and ratios are printed. The counts repeat exactly from
run to run, whatever the machine's load: the work each ratio stands for,
without the page faults and the cores' contention that the wall time also
holds. The four runs take about a minute and a half on two cores.

DATA_DIR needs (from the repository's root):
    mkdir -p DATA_DIR/scale
    ANCHORS_DATA=DATA_DIR python3 ../shared/bench/gen_workload.py
    Scripts/make-replay-workload.py DATA_DIR 1000
    Scripts/make-replay-workload.py DATA_DIR 100000
    Scripts/make-scale-workload.py DATA_DIR/scale devices 1 1000000
    Scripts/make-scale-workload.py DATA_DIR/scale chopped 100000 10
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PAIRS = {
    "tasks": ("track_city.nmea", "replay_tasks_1000.json", "replay_tasks_100000.json"),
    "devices": ("scale/devices_1_1000000.csv", "scale/devices_100000_10_chopped.csv"),
}


FEED_FIXES = 1_000_000


def commands(data, binary, jobs):
    """The two runs of each pair, then the single-thread run: (name, label, arguments)."""
    regions = os.path.join(data, "replay_regions_city_10000.csv")

    def replay(feed, tasks, jobs=jobs):
        return [binary, "replay", os.path.join(data, feed), "--regions", regions,
                "--tasks", os.path.join(data, tasks), "--json", "--jobs", str(jobs)]

    feed, few, many = PAIRS["tasks"]
    one, chopped = PAIRS["devices"]
    return [
        ("tasks", "1 000 tasks", replay(feed, few)),
        ("tasks", "100 000 tasks", replay(feed, many)),
        ("devices", "1 device", replay(one, few)),
        ("devices", "100 000 devices", replay(chopped, few)),
        ("single", "1 000 tasks, --jobs 1", replay(feed, few, jobs=1)),
    ]


def rate(seconds):
    """Fixes per second of the 1M-fix feed, in millions."""
    return f"{FEED_FIXES / seconds / 1e6:.2f}M"


def timed(arguments):
    """Wall seconds of one run, its output thrown away; exits on a failure."""
    start = time.perf_counter()
    try:
        result = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as error:
        sys.exit(f"cannot run {arguments[0]}: {error.strerror}")
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} exited {result.returncode}: {result.stderr.decode()[-400:]}")
    return seconds


def count_instructions(binaries, data):
    """Prints each pair's instruction counts at --jobs 1 and their ratio, per binary."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install --no-install-recommends valgrind)")
    with tempfile.TemporaryDirectory(prefix="scaling-ratios-") as folder:
        for number, binary in enumerate(binaries):
            stripped = os.path.join(folder, f"repeat-sim-{number}")
            stripping = subprocess.run(["strip", "-g", "-o", stripped, binary], capture_output=True, text=True)
            if stripping.returncode != 0:
                sys.exit(f"cannot make a copy of {binary} without debug information: {stripping.stderr.strip()}")
            runs = [(pair, label, arguments) for pair, label, arguments in commands(data, stripped, 1)
                    if pair in PAIRS]
            started = []
            counts = {}
            for index, (_, label, arguments) in enumerate(runs):
                command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/callgrind.{index}",
                           *arguments]
                started.append((label, subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)))
                # Two at a time: one a core on this machine.
                if len(started) == 2 or index == len(runs) - 1:
                    for waiting_label, process in started:
                        _, errors = process.communicate()
                        found = re.search(rb"Collected : (\d+)", errors)
                        if process.returncode != 0 or not found:
                            sys.exit(f"{waiting_label} under callgrind failed: {errors.decode()[-400:]}")
                        counts[waiting_label] = int(found.group(1))
                    started = []
            print(f"{binary} --jobs 1, instructions (callgrind)")
            for pair in PAIRS:
                base, scaled = [label for name, label, _ in runs if name == pair]
                print(f"  {base}: {counts[base] / 1e6:,.1f}M; {scaled}: {counts[scaled] / 1e6:,.1f}M; "
                      f"ratio {counts[scaled] / counts[base]:.3f}")


def summary(times):
    """Best, first quartile and median of `times`."""
    ordered = sorted(times)
    return ordered[0], ordered[len(ordered) // 4], statistics.median(ordered)


def milliseconds(figures):
    """`figures` in ms, joined by slashes."""
    return " / ".join(f"{value * 1000:.0f}" for value in figures)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", metavar="DATA_DIR")
    parser.add_argument("binaries", metavar="BINARY", nargs="*", default=[".build/release/repeat-sim"])
    parser.add_argument("--rounds", type=int, default=11, help="runs of each command (default 11)")
    parser.add_argument("--jobs", type=int, default=2, help="replay's --jobs (default 2)")
    parser.add_argument("--floor", metavar="PATH", help="the C floor parser (default DATA_DIR/build/nmea_floor)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each pair's instructions under callgrind at --jobs 1 instead of timing")
    options = parser.parse_intermixed_args()
    if options.rounds < 1 or options.jobs < 1:
        parser.error("--rounds and --jobs take a whole number from 1 up")
    wanted = ["replay_regions_city_10000.csv", *PAIRS["tasks"], *PAIRS["devices"]]
    missing = [name for name in wanted if not os.path.exists(os.path.join(options.data, name))]
    if missing:
        sys.exit(f"missing in {options.data}: {', '.join(missing)} (see --help for how to make them)")
    if options.instructions:
        count_instructions(options.binaries, options.data)
        return
    floor = options.floor or os.path.join(options.data, "build", "nmea_floor")
    if options.floor and not os.access(floor, os.X_OK):
        sys.exit(f"--floor {floor}: not an executable")
    runs = {binary: commands(options.data, binary, options.jobs) for binary in options.binaries}
    if os.access(floor, os.X_OK):
        runs[floor] = [("floor", "C floor parser", [floor, os.path.join(options.data, PAIRS["tasks"][0])])]
    times = {(binary, label): [] for binary in runs for _, label, _ in runs[binary]}
    # One untimed run of each first: this machine's kernel pages out files
    # left unread for a minute (DAMON), and a first run reading them back
    # from disk measures the disk.
    for commands_of_binary in runs.values():
        for _, _, arguments in commands_of_binary:
            timed(arguments)
    progress = sys.stderr.isatty()
    for round_number in range(options.rounds):
        if progress:
            print(f"round {round_number + 1}/{options.rounds}", file=sys.stderr, end="\r")
        for binary, commands_of_binary in runs.items():
            for _, label, arguments in commands_of_binary:
                times[(binary, label)].append(timed(arguments))
    if progress:
        print(file=sys.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    for binary, commands_of_binary in runs.items():
        if binary == floor:
            continue
        print(f"{binary} --jobs {options.jobs}, {options.rounds} rounds: best / q1 / median ms")
        for pair in PAIRS:
            base, scaled = [label for name, label, _ in commands_of_binary if name == pair]
            a, b = summary(times[(binary, base)]), summary(times[(binary, scaled)])
            ratios = " / ".join(f"{y / x:.3f}" for x, y in zip(a, b))
            print(f"  {base}: {milliseconds(a)}; {scaled}: {milliseconds(b)}; ratio {ratios}")
        print(f"  1M-fix feed, 1 000 tasks, fixes/s by the median: --jobs {options.jobs} "
              f"{rate(summary(times[(binary, '1 000 tasks')])[2])}, --jobs 1 "
              f"{rate(summary(times[(binary, '1 000 tasks, --jobs 1')])[2])} "
              f"({milliseconds(summary(times[(binary, '1 000 tasks, --jobs 1')]))} ms)")
    if floor in runs:
        figures = summary(times[(floor, "C floor parser")])
        print(f"C floor parser, the same feed: {milliseconds(figures)} ms; {rate(figures[2])} fixes/s by the median")
    print(f"largest peak RSS of any run: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
