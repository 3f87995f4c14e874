#!/usr/bin/env python3
"""Writes the workloads of the memory figures (issue 16) into DATA_DIR.

    Scripts/make-scale-workload.py DATA_DIR regions COUNT
        regions_country_COUNT.csv   COUNT circles of 50-500 m, uniform over
                                    800 km x 800 km around 52.52 N 13.40 E
    Scripts/make-scale-workload.py DATA_DIR devices COUNT FIXES [STAGGER]
        devices_COUNT_FIXES[_STAGGER].csv   COUNT devices walking in the
                                    30 km city box, FIXES fixes each 10 s
                                    apart; device i starts STAGGER x i
                                    seconds after the first (0: all at once)
    Scripts/make-scale-workload.py DATA_DIR chopped COUNT FIXES
        devices_COUNT_FIXES_chopped.csv   the one walk of devices_1_N.csv
                                    (N = COUNT x FIXES) cut into COUNT
                                    devices of FIXES fixes, all starting
                                    at once: the same positions as the one
                                    device, so a comparison of the two
                                    measures what a device costs, not
                                    where the fixes fall among the regions

Tasks: Scripts/make-replay-workload.py DATA_DIR COUNT. Deterministic; no
third-party modules. Measure with e.g.

    /usr/bin/time -f '%M KB %e s' .build/release/repeat-sim replay \\
        track.nmea --regions DATA_DIR/regions_country_10000000.csv --transitions --json >/dev/null

and subtract the same command's figure on a tiny input.
"""
import math
import os
import random
import sys

EARTH_RADIUS = 6371008.8
METRES_PER_DEGREE = EARTH_RADIUS * math.pi / 180
LAT0, LON0 = 52.52, 13.40
T0 = 1_700_000_000


def box(half_metres):
    half_lat = half_metres / METRES_PER_DEGREE
    half_lon = half_metres / (METRES_PER_DEGREE * math.cos(math.radians(LAT0)))
    return half_lat, half_lon


def regions(data, count):
    rng = random.Random(11)
    half_lat, half_lon = box(400_000)
    with open(os.path.join(data, f"regions_country_{count}.csv"), "w") as target:
        target.write("id,lat,lon,radius_m\n")
        for start in range(0, count, 100_000):
            lines = []
            for index in range(start, min(count, start + 100_000)):
                lat = LAT0 + rng.uniform(-half_lat, half_lat)
                lon = LON0 + rng.uniform(-half_lon, half_lon)
                lines.append(f"{index},{lat:.7f},{lon:.7f},{rng.uniform(50, 500):.2f}\n")
            target.write("".join(lines))


def walk_step(rng, position):
    """Moves a [lat, lon] position by one step of the random walk (about 20 m)."""
    step = 20 / METRES_PER_DEGREE
    position[0] += rng.gauss(0, step)
    position[1] += rng.gauss(0, step / 0.6)


def devices(data, count, fixes, stagger):
    rng = random.Random(12)
    half_lat, half_lon = box(15_000)
    positions = [[LAT0 + rng.uniform(-half_lat, half_lat), LON0 + rng.uniform(-half_lon, half_lon)] for _ in range(count)]
    rows = []
    for device in range(count):
        for fix in range(fixes):
            walk_step(rng, positions[device])
            time = T0 + device * stagger + fix * 10
            rows.append((time, device, f"{time:.1f},{positions[device][0]:.7f},{positions[device][1]:.7f},dev-{device:06d}\n"))
    rows.sort(key=lambda row: (row[0], row[1]))
    suffix = f"_{stagger:g}" if stagger else ""
    with open(os.path.join(data, f"devices_{count}_{fixes}{suffix}.csv"), "w") as target:
        target.write("time,lat,lon,device\n")
        target.write("".join(row[2] for row in rows))


def chopped(data, count, fixes):
    rng = random.Random(12)
    half_lat, half_lon = box(15_000)
    # The same draws as devices(data, 1, count * fixes, 0).
    position = [LAT0 + rng.uniform(-half_lat, half_lat), LON0 + rng.uniform(-half_lon, half_lon)]
    walk = []
    for _ in range(count * fixes):
        walk_step(rng, position)
        walk.append((position[0], position[1]))
    with open(os.path.join(data, f"devices_{count}_{fixes}_chopped.csv"), "w") as target:
        target.write("time,lat,lon,device\n")
        for fix in range(fixes):
            time = T0 + fix * 10
            lines = []
            for device in range(count):
                lat, lon = walk[device * fixes + fix]
                lines.append(f"{time:.1f},{lat:.7f},{lon:.7f},dev-{device:06d}\n")
            target.write("".join(lines))


def main():
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[1] == "regions":
        regions(arguments[0], int(arguments[2]))
    elif len(arguments) == 4 and arguments[1] == "chopped":
        chopped(arguments[0], int(arguments[2]), int(arguments[3]))
    elif len(arguments) in (4, 5) and arguments[1] == "devices":
        devices(arguments[0], int(arguments[2]), int(arguments[3]), float(arguments[4]) if len(arguments) == 5 else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
