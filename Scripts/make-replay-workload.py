#!/usr/bin/env python3
"""Writes the end-to-end replay workload beside gen_workload.py's files.

    Scripts/make-replay-workload.py DATA_DIR [TASKS]

Reads DATA_DIR/regions_city_10000.csv (../shared/bench/gen_workload.py) and
writes, deterministically:
  replay_regions_city_10000.csv  the same regions with a task column: every
                                 tenth region belongs to one of TASKS tasks
  replay_tasks_TASKS.json        TASKS tasks (default 1000) in the tasks-file
                                 format, every schedule kind, starts and
                                 completions spread over the weeks before and
                                 during track_city.nmea (2023-11-14 on), so
                                 gates open, close and reopen while it plays.
No third-party modules.
"""
import csv
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

T0 = datetime.fromtimestamp(1_700_000_000, tz=timezone.utc)  # gen_workload.py's first fix


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def schedule(rng, index):
    kind = index % 4
    if kind == 0:
        low = rng.choice([1, 2, 3, 5])
        return {"afterCompletion": {"min": f"{low}d", "max": f"{low + rng.choice([1, 2, 4])}d"}}
    if kind == 1:
        return {"fixed": {"every": rng.choice(["1d", "2d", "3d", "1w"])}}
    if kind == 2:
        days = sorted(rng.sample(["mon", "tue", "wed", "thu", "fri", "sat", "sun"], rng.randint(1, 3)))
        return {"weekdays": {"days": days, "at": f"{rng.randint(6, 21):02d}:{rng.choice([0, 15, 30, 45]):02d}"}}
    return {"afterCompletion": {"min": "12h", "max": "36h"}}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    data = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 1000
    rng = random.Random(5)
    with open(os.path.join(data, "regions_city_10000.csv"), newline="") as source:
        rows = list(csv.reader(source))
    header, regions = rows[0], rows[1:]
    with open(os.path.join(data, "replay_regions_city_10000.csv"), "w", newline="") as target:
        writer = csv.writer(target, lineterminator="\n")
        writer.writerow(header + ["task"])
        for index, row in enumerate(regions):
            task = f"task-{(index // 10) % count}" if index % 10 == 0 else ""
            writer.writerow(row + [task])
    tasks = []
    for index in range(count):
        start = T0 - timedelta(days=rng.uniform(0, 21))
        completions = sorted(
            start + timedelta(hours=rng.uniform(6, 24 * 14)) for _ in range(rng.randint(0, 4)))
        tasks.append({
            "id": f"task-{index}", "title": f"Errand {index}", "timeZone": "Europe/Berlin",
            "start": iso(start), "schedule": schedule(rng, index), "lead": rng.choice(["1h", "6h", "24h"]),
            "completions": [iso(moment) for moment in completions],
        })
    with open(os.path.join(data, f"replay_tasks_{count}.json"), "w") as target:
        json.dump({"tasks": tasks}, target, indent=1)
        target.write("\n")


if __name__ == "__main__":
    main()
