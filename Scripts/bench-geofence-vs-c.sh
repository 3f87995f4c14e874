#!/usr/bin/env bash
# Compares `repeat-sim bench` with the C grid baseline (../shared/bench/geofence.c
# `gridpf`) on the same gen_workload.py files, in the same run, and checks the
# hit counts against the C brute force.
#
#   Scripts/bench-geofence-vs-c.sh DATA_DIR
#
# DATA_DIR (outside the repository) receives the generated workload (about 300 MB,
# needs python3 + numpy) and the C binary. Environment:
#   SHARED_BENCH  folder with gen_workload.py and geofence.c (default ../shared/bench)
#   REPEATS       runs per measurement; the median is reported (default 3)
#   SIZES         region counts (default "1000 10000 100000 1000000")
#   BOXES         default "city country"
set -euo pipefail
source "$(dirname "$0")/bench-common.sh" "$@"
sizes="${SIZES:-1000 10000 100000 1000000}"
boxes="${BOXES:-city country}"

ensure_workload positions_country.csv regions_country_1000000.csv
gcc -O2 -o "$data/build/geofence" "$shared/geofence.c" -lm
build_release
c="$data/build/geofence"

printf '%-8s %8s %14s %14s %7s %10s %10s %9s %9s %s\n' box regions "C gridpf/s" "repeat-sim/s" ratio "C build s" "build s" "B/region" "hits=C" "brute prefix"
for box in $boxes; do
    positions="$data/positions_$box.csv"
    for n in $sizes; do
        regions="$data/regions_${box}_$n.csv"
        c_rates=(); s_rates=(); s_builds=()
        for _ in $(seq "$repeats"); do
            # Alternate the two so that machine load falls on both alike.
            c_json="$("$c" gridpf "$regions" "$positions" 1000000)"
            s_json="$("$sim" bench --regions "$regions" --positions "$positions" --json 2>"$data/build/stderr.txt")"
            c_rates+=("$(echo "$c_json" | field pos_per_s)")
            s_rates+=("$(echo "$s_json" | field positions_per_s)")
            s_builds+=("$(echo "$s_json" | field build_s)")
        done
        c_rate="$(printf '%s\n' "${c_rates[@]}" | median)"
        s_rate="$(printf '%s\n' "${s_rates[@]}" | median)"
        s_build="$(printf '%s\n' "${s_builds[@]}" | median)"
        c_build="$(echo "$c_json" | field build_s)"
        c_hits="$(echo "$c_json" | field hits)"
        s_hits="$(echo "$s_json" | field hits)"
        agrees="$(echo "$s_json" | field bruteforce_agrees)"
        per_region="$(sed -n 's/.* \([0-9.]*\) bytes\/region.*/\1/p' "$data/build/stderr.txt")"
        # The C brute force on a prefix of the positions, against repeat-sim on the same prefix.
        prefix=$(( 200000000 / n )); [ "$prefix" -gt 1000000 ] && prefix=1000000
        head -n $(( prefix + 1 )) "$positions" >"$data/build/prefix.csv"
        brute_hits="$("$c" brute "$regions" "$data/build/prefix.csv" "$prefix" | field hits)"
        prefix_hits="$("$sim" bench --regions "$regions" --positions "$data/build/prefix.csv" --json 2>/dev/null | field hits)"
        hits_ok=$([ "$c_hits" = "$s_hits" ] && echo yes || echo NO)
        brute_ok=$([ "$brute_hits" = "$prefix_hits" ] && echo "yes ($prefix pos, $brute_hits hits)" || echo "NO ($brute_hits vs $prefix_hits)")
        ratio="$(awk -v a="$s_rate" -v b="$c_rate" 'BEGIN { printf "%.2f", a / b }')"
        printf '%-8s %8s %14.0f %14.0f %6sx %10s %10s %9s %9s %s; in-process brute agrees: %s\n' \
            "$box" "$n" "$c_rate" "$s_rate" "$ratio" "$c_build" "$s_build" "$per_region" "$hits_ok" "$brute_ok" "$agrees"
    done
done
