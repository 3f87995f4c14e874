#!/usr/bin/env python3
"""Builds the libFuzzer targets of Fuzz/ and runs each for a while.

    Scripts/fuzz.py                          every target, 60 s each
    Scripts/fuzz.py --seconds 3600 gpx       a long run of one target
    Scripts/fuzz.py --seconds 600 --jobs 2   two targets at a time
    Scripts/fuzz.py --minimize gpx FILE      shrink a crash file
    Scripts/fuzz.py --list                   the targets

Targets: the NMEA, GPX, KML, TCX, FIT, CSV and gpsd JSON decoders, the sniffing decoder
(no --format), the regions file loader, the places file loader (`place import`), the
tasks file loader and the direct reader of replay's shard lines (see
Fuzz/Package.swift). They are built with coverage and the address sanitizer
(`-sanitize=fuzzer,address`), the root package's modules included, and
optimised (-c release, which keeps Swift's overflow and bounds traps;
--debug also checks unsafe-pointer bounds, at a third or less of the speed).

Seeds, made afresh on every run, cut to --max-len bytes: Tracks/,
Fuzz/Seeds/TARGET/, Fuzz/Regressions/TARGET/ (inputs that once crashed,
replayed first) and, when it exists, ../shared/corpus (REPEAT_CORPUS
points elsewhere; a fresh clone in CI has none, which is fine).

Everything a run writes is in Fuzz/.work/ (git-ignored):
    corpus/TARGET/    the inputs libFuzzer found new coverage with, kept
                      between runs: a long run goes on where the last stopped
    crashes/TARGET/   crash-*, timeout-*, oom-*, leak-* inputs
    logs/TARGET.log   libFuzzer's output

Exit 0 when no target found anything, 1 when one did (each finding named
with its target, file and the command that replays it), 2 when the fuzzers
cannot be built. CONTRIBUTING.md ("Fuzzing") says how a finding becomes a
regression test.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "Fuzz")
WORK = os.path.join(FUZZ, ".work")
SHARED_CORPUS = os.environ.get("REPEAT_CORPUS") or os.path.join(os.path.dirname(ROOT), "shared", "corpus")
SANITIZE = ["-Xswiftc", "-sanitize=fuzzer,address", "-Xcc", "-fsanitize=fuzzer-no-link,address"]
# gold says this once per sanitizer helper symbol and executable: noise.
LINKER_NOISE = re.compile(r"ld\.gold: warning: Cannot export local symbol")
# What a wildcard pattern in ../shared/corpus skips: expected outputs, notes,
# licences (a pattern with a suffix, like **/*.chk, takes what it names).
NOT_INPUT = re.compile(r"\.expected\.|\.chk$|\.(md|tsv|py|json)$|(^|/)(licenses|tools)/")

# target: (seed globs under the repository, seed globs under ../shared/corpus)
FEED_SEEDS = {
    "nmea": (["Tracks/**/*.nmea"], ["nmea/**/*"]),
    "gpx": (["Tracks/**/*.gpx"], ["gpx/**/*"]),
    "kml": (["Tracks/**/*.kml"], []),
    "tcx": (["Tracks/**/*.tcx"], []),
    "fit": (["Tracks/**/*.fit"], []),
    "csv": (["Tracks/csv/*.csv"], ["csv/**/*", "**/*.unicsv"]),
    "gpsd": ([], ["**/*.gpsdecode.json", "**/*.chk"]),
    "takeout": (["Tracks/takeout/*.json"], []),
    "timeline": (["Tracks/timeline/*.json"], []),
}
TARGETS = {
    **FEED_SEEDS,
    "sniff": (
        sum((repo for repo, _ in FEED_SEEDS.values()), []),
        sum((shared for _, shared in FEED_SEEDS.values()), []),
    ),
    "regions": (["Tracks/**/places.csv", "Tracks/**/*-places.csv", "Tracks/places/*.kml"], []),
    "places": (
        ["Tracks/**/places.gpx", "Tracks/**/places.csv", "Tracks/places/*.json", "Tracks/places/*.kml", "Tracks/timeline/*.json"],
        [],
    ),
    "tasks": (["Tracks/**/tasks.json"], []),
    "shard": ([], []),
}


def log(message):
    print(f"[fuzz] {message}", flush=True)


def build(configuration):
    command = ["swift", "build", "--package-path", FUZZ, "-c", configuration] + SANITIZE
    started = time.monotonic()
    # swift-build itself now and then dies in libdispatch's event loop on
    # Linux (signal 11, swiftlang/swift#87033): once more, and a build that
    # really fails fails again.
    if not built(command) and not built(command):
        log("the fuzzers did not build")
        sys.exit(2)
    log(f"built in {time.monotonic() - started:.0f} s")
    shown = subprocess.run(
        ["swift", "build", "--package-path", FUZZ, "-c", configuration, "--show-bin-path"] + SANITIZE,
        capture_output=True, text=True, check=True)
    return shown.stdout.strip()


def built(command):
    """Runs a build, showing its output but its progress lines; whether it succeeded."""
    log("$ " + " ".join(command))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        # Progress lines ("[12/218] Compiling …") and gold's noise are left out.
        if not LINKER_NOISE.search(line) and not re.match(r"\[\d+/\d+\] ", line):
            sys.stdout.write(line)
    return process.wait() == 0


def seed_files(target):
    repo_globs, shared_globs = TARGETS[target]
    files = []
    for pattern in repo_globs:
        files += glob.glob(os.path.join(ROOT, pattern), recursive=True)
    names = [target] if target != "sniff" else list(TARGETS)
    for name in names:
        for folder in ("Seeds", "Regressions"):
            files += glob.glob(os.path.join(FUZZ, folder, name, "*"))
    if os.path.isdir(SHARED_CORPUS):
        for pattern in shared_globs:
            for path in glob.glob(os.path.join(SHARED_CORPUS, pattern), recursive=True):
                if not pattern.endswith("*") or not NOT_INPUT.search(os.path.relpath(path, SHARED_CORPUS)):
                    files.append(path)
    return sorted({path for path in files if os.path.isfile(path)})


def make_seeds(target, max_len):
    """Writes the target's seeds to Fuzz/.work/seeds/TARGET/: each file's
    first max_len bytes and, for a longer file, max_len bytes from a line
    start in its middle. Returns the folder and the number of files read."""
    folder = os.path.join(WORK, "seeds", target)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    files = seed_files(target)
    for path in files:
        with open(path, "rb") as handle:
            data = handle.read()
        pieces = [data[:max_len]]
        if len(data) > max_len:
            middle = data.find(b"\n", len(data) // 2) + 1
            pieces.append(data[middle:middle + max_len])
        for piece in pieces:
            name = hashlib.sha1(piece).hexdigest()[:16]
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(piece)
    return folder, len(files)


def findings(folder, since):
    """The inputs libFuzzer saved in `folder` since `since` (time.time())."""
    return sorted(
        name for name in os.listdir(folder)
        if re.match(r"(crash|timeout|oom|leak)-", name) and os.path.getmtime(os.path.join(folder, name)) >= since)


def fuzz(target, binary_folder, args):
    binary = os.path.join(binary_folder, f"fuzz-{target}")
    corpus = os.path.join(WORK, "corpus", target)
    crashes = os.path.join(WORK, "crashes", target)
    logs = os.path.join(WORK, "logs")
    for folder in (corpus, crashes, logs):
        os.makedirs(folder, exist_ok=True)
    seeds, seed_count = make_seeds(target, args.max_len)
    since = time.time() - 1
    command = [
        binary, f"-max_total_time={args.seconds}", f"-max_len={args.max_len}", f"-timeout={args.timeout}",
        f"-rss_limit_mb={args.rss_limit_mb}", f"-artifact_prefix={crashes}/", "-print_final_stats=1",
    ]
    dictionary = os.path.join(FUZZ, "Dictionaries", f"{target}.dict")
    if os.path.exists(dictionary):
        command.append(f"-dict={dictionary}")
    command += args.libfuzzer + [corpus, seeds]
    log_path = os.path.join(logs, f"{target}.log")
    started = time.monotonic()
    with open(log_path, "w") as output:
        output.write("$ " + " ".join(command) + "\n")
        output.flush()
        # A margin over -max_total_time: libFuzzer first runs every seed.
        try:
            status = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT,
                                    timeout=args.seconds * 2 + 300).returncode
        except subprocess.TimeoutExpired:
            status = "hung"
    elapsed = time.monotonic() - started
    with open(log_path, errors="replace") as handle:
        text = handle.read()
    return {
        "target": target, "status": status, "elapsed": elapsed, "log": log_path, "seeds": seed_count,
        "new": findings(crashes, since), "crashes": crashes, "binary": binary, "text": text,
    }


def last_stats(text):
    lines = [line for line in text.splitlines() if re.match(r"#\d+\s+(DONE|pulse|INITED|NEW|REDUCE)\s", line)]
    if not lines:
        return "no coverage figures (see the log)"
    fields = dict(re.findall(r"(cov|ft|corp|exec/s|rss): (\S+)", lines[-1]))
    runs = re.match(r"#(\d+)", lines[-1]).group(1)
    return (f"cov {fields.get('cov', '?')}  ft {fields.get('ft', '?')}  corpus {fields.get('corp', '?')}  "
            f"runs {runs}  exec/s {fields.get('exec/s', '?')}")


def report(result):
    target = result["target"]
    summary = f"{target:8} {result['elapsed']:5.0f} s  {result['seeds']:3} seed files  {last_stats(result['text'])}"
    if not result["new"] and result["status"] == 0:
        log(summary)
        return True
    log(summary + "  FAILED")
    relative = os.path.relpath(result["binary"], ROOT)
    for name in result["new"]:
        path = os.path.relpath(os.path.join(result["crashes"], name), ROOT)
        log(f"{target}: found {name.split('-')[0]}: {path}")
        log(f"    replay:   {relative} {path}")
        log(f"    minimise: Scripts/fuzz.py --minimize {target} {path}")
    if not result["new"]:
        log(f"{target}: libFuzzer exited with status {result['status']} and saved no input")
    # The lines that say what went wrong, so that the CI log is enough: the
    # Swift or sanitizer message (all its lines), the frames in Repeat's
    # sources, the input's name and, when it is short, its Base64.
    interesting = re.compile(
        r"Fatal error|ERROR: |SUMMARY: |Base64: |Test unit written|Slowest unit|deadly|ALARM: |out-of-memory|leak")
    message = False
    shown = []
    for line in result["text"].splitlines():
        if "Fatal error" in line or "ERROR: AddressSanitizer" in line:
            message = True
        elif re.match(r"==\d+==|#\d+\s|INFO:|MS: ", line):
            message = False
        frame = re.match(r"\s+#\d+ 0x", line) and "Sources/" in line
        if message or frame or interesting.search(line):
            shown.append(line)
    for line in shown[:80]:
        print(f"    | {line}")
    log(f"{target}: full output in {os.path.relpath(result['log'], ROOT)}")
    return False


def minimize(target, path, binary_folder, seconds):
    binary = os.path.join(binary_folder, f"fuzz-{target}")
    directory, name = os.path.split(os.path.abspath(path))
    prefix = os.path.join(directory, "minimized-")
    command = [binary, "-minimize_crash=1", f"-max_total_time={seconds}", f"-exact_artifact_path={prefix}{name}", path]
    log("$ " + " ".join(command))
    subprocess.run(command)
    log(f"smallest input that still fails: {os.path.relpath(prefix + name, ROOT)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="targets to run (default: all)")
    parser.add_argument("--seconds", type=int, default=60, help="fuzzing time per target (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="targets fuzzed at the same time (default 1)")
    parser.add_argument("--max-len", type=int, default=8192, help="largest input in bytes (default 8192)")
    parser.add_argument("--timeout", type=int, default=10, help="seconds one input may take (default 10)")
    parser.add_argument("--rss-limit-mb", type=int, default=2560, help="memory limit (default 2560)")
    parser.add_argument("--debug", action="store_true",
                        help="an unoptimised build: Swift's debug-only checks (unsafe pointer bounds) on, 3-7x slower")
    parser.add_argument("--no-build", action="store_true", help="use the fuzzers already built")
    parser.add_argument("--minimize", nargs=2, metavar=("TARGET", "FILE"), help="shrink a crash file")
    parser.add_argument("--list", action="store_true", help="print the targets")
    parser.add_argument("--libfuzzer", action="append", default=[], metavar="FLAG",
                        help="one more libFuzzer flag, e.g. --libfuzzer=-use_value_profile=1")
    args = parser.parse_args()
    if args.list:
        print("\n".join(TARGETS))
        return 0
    targets = args.targets or list(TARGETS)
    if args.minimize:
        targets = [args.minimize[0]]
    unknown = [name for name in targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)}; the targets are {', '.join(TARGETS)}")

    configuration = "debug" if args.debug else "release"
    if args.no_build:
        binary_folder = os.path.join(FUZZ, ".build", configuration)
    else:
        binary_folder = build(configuration)
    if args.minimize:
        minimize(args.minimize[0], args.minimize[1], binary_folder, max(args.seconds, 60))
        return 0

    if not os.path.isdir(SHARED_CORPUS):
        log(f"no shared corpus at {SHARED_CORPUS}: seeds from the repository only")
    log(f"{len(targets)} target(s), {args.seconds} s each, {args.jobs} at a time; work in {os.path.relpath(WORK, ROOT)}/")
    started = time.monotonic()
    passed = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(lambda target: fuzz(target, binary_folder, args), targets):
            passed = report(result) and passed
    log(f"fuzzing took {time.monotonic() - started:.0f} s")
    if not passed:
        log("a fuzzer found an input that fails: see above; CONTRIBUTING.md (Fuzzing) says how to make it a test")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
