#!/usr/bin/env bash
# End-to-end replay speed: `repeat-sim replay` of gen_workload.py's 1M-fix
# NMEA file against 10 000 regions with 1 000 tasks, on one thread
# (`--jobs 1`) and on every core (the default), next to what the same
# run measures for decoding alone (`repeat-sim bench --parse`) and for the C
# floor parser (../shared/bench/nmea_floor.c) on the same file.
#
#   Scripts/bench-replay.sh DATA_DIR
#
# DATA_DIR (outside the repository) receives the workload (about 300 MB,
# needs python3 + numpy) and the C binary. Environment:
#   SHARED_BENCH  folder with gen_workload.py and nmea_floor.c (default ../shared/bench)
#   REPEATS       runs per measurement; the median is reported (default 3)
set -euo pipefail
source "$(dirname "$0")/bench-common.sh" "$@"

ensure_workload track_city.nmea regions_city_10000.csv
python3 "$repo/Scripts/make-replay-workload.py" "$data" 1000
gcc -O2 -o "$data/build/nmea_floor" "$shared/nmea_floor.c" -lm
build_release
feed="$data/track_city.nmea"
fixes=1000000

seconds() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1; }

# One untimed replay first: this machine's kernel pages out files left
# unread for a minute (DAMON), and a first run reading them back from disk
# measures the disk.
"$sim" replay "$feed" --regions "$data/replay_regions_city_10000.csv" --tasks "$data/replay_tasks_1000.json" \
    --json >/dev/null 2>&1
replay_s=(); replay_kb=(); single_s=(); parse_rates=(); floor_s=()
for _ in $(seq "$repeats"); do
    read -r s kb < <(seconds "$sim" replay "$feed" --regions "$data/replay_regions_city_10000.csv" \
        --tasks "$data/replay_tasks_1000.json" --json)
    replay_s+=("$s"); replay_kb+=("$kb")
    read -r s _ < <(seconds "$sim" replay "$feed" --regions "$data/replay_regions_city_10000.csv" \
        --tasks "$data/replay_tasks_1000.json" --json --jobs 1)
    single_s+=("$s")
    parse_rates+=("$("$sim" bench --parse "$feed" --json | field fixes_per_s)")
    read -r s _ < <(seconds "$data/build/nmea_floor" "$feed")
    floor_s+=("$s")
done
replay="$(printf '%s\n' "${replay_s[@]}" | median)"
single="$(printf '%s\n' "${single_s[@]}" | median)"
peak_mb="$(printf '%s\n' "${replay_kb[@]}" | median | awk '{ printf "%.1f", $1 / 1024 }')"
parse="$(printf '%s\n' "${parse_rates[@]}" | median)"
floor="$(printf '%s\n' "${floor_s[@]}" | median)"
"$sim" replay "$feed" --regions "$data/replay_regions_city_10000.csv" --tasks "$data/replay_tasks_1000.json" \
    --json 2>"$data/build/replay-summary.txt" | wc -l | awk '{ print "reminder lines: " $1 }'
cat "$data/build/replay-summary.txt"
awk -v n="$fixes" -v r="$replay" -v s="$single" -v p="$parse" -v f="$floor" -v m="$peak_mb" -v c="$(nproc)" 'BEGIN {
    printf "replay end to end, %d cores (process wall clock): %.2f s = %.0f fixes/s, peak RSS %s MB\n", c, r, n / r, m
    printf "replay end to end, --jobs 1:             %.2f s = %.0f fixes/s\n", s, n / s
    printf "decode only (repeat-sim bench --parse):  %.0f fixes/s\n", p
    printf "C floor parser (nmea_floor.c):          %.2f s = %.0f fixes/s (process wall clock)\n", f, n / f
    printf "replay / C floor parse: %.2f\n", (n / r) / (n / f)
}'
