#!/usr/bin/env bash
# Decode speed and memory next to the baselines of ../shared/bench/README.md,
# measured in one run on gen_workload.py's files:
#   NMEA  1M GGA+RMC fixes   repeat-sim bench --parse | nmea_floor.c | gpsdecode
#   GPX   1M trkpt           repeat-sim bench --parse | xmllint --stream | gpsbabel
#   CSV   1M rows            repeat-sim bench --parse
#   gpsd  1M TPV lines       repeat-sim bench --parse
# then the peak RSS of `repeat-sim decode --json` on a >= 1 GB NMEA file and
# a >= 1 GB GPX file (made from the 1M-fix files).
#
#   Scripts/bench-decode.sh DATA_DIR
#
# DATA_DIR (outside the repository) receives the workload (about 2.5 GB,
# needs python3 + numpy) and the C binary. gpsdecode (apt gpsd-clients) and
# gpsbabel (apt gpsbabel) run on the 100k-fix files: they are 20-50 times
# slower. Environment:
#   SHARED_BENCH  folder with gen_workload.py and nmea_floor.c (default ../shared/bench)
#   REPEATS       runs per measurement; the median is reported (default 3)
set -euo pipefail
source "$(dirname "$0")/bench-common.sh" "$@"

ensure_workload track_city.nmea track_city.gpx track_city_100k.nmea track_city_100k.gpx positions_city.csv
gcc -O2 -o "$data/build/nmea_floor" "$shared/nmea_floor.c" -lm
build_release

# gpsd JSON: the 1M fixes as `gpspipe -w` would log them.
if [ ! -f "$data/tpv_1m.json" ]; then
    echo "writing tpv_1m.json ..." >&2
    "$sim" decode "$data/track_city.nmea" --json 2>/dev/null | python3 -c '
import json, sys
out = sys.stdout
out.write("{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\n")
for line in sys.stdin:
    f = json.loads(line)
    out.write("{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":3,\"time\":\"%s\",\"lat\":%.9f,\"lon\":%.9f,\"alt\":%.4f,\"eph\":5.280,\"speed\":%.3f,\"track\":%.4f}\n"
              % (f["time"], f["lat"], f["lon"], f.get("ele", 0), f.get("speed", 0), f.get("course", 0)))
' >"$data/tpv_1m.json"
fi
# >= 1 GB files for the memory check: the 1M-fix files repeated.
if [ ! -f "$data/big_1g.nmea" ]; then
    for _ in 1 2 3 4 5 6 7; do cat "$data/track_city.nmea"; done >"$data/big_1g.nmea"
fi
if [ ! -f "$data/big_1g.gpx" ]; then
    python3 - "$data/track_city.gpx" "$data/big_1g.gpx" <<'EOF'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
head, rest = text.split("<trk>", 1)
body = "<trk>" + rest.rsplit("</gpx>", 1)[0]
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write(head)
    for _ in range(11):
        out.write(body)
    out.write("</gpx>\n")
EOF
fi

# Items per second of a command over a file of N items (process wall clock).
rate_of() {
    local n="$1"; shift
    local runs=()
    for _ in $(seq "$repeats"); do
        /usr/bin/time -f '%e' -o "$data/build/time.txt" "$@" >/dev/null 2>&1
        runs+=("$(tail -n 1 "$data/build/time.txt")")
    done
    printf '%s\n' "${runs[@]}" | median | awk -v n="$n" '{ printf "%.0f", n / ($1 > 0 ? $1 : 0.001) }'
}
ours() {
    local runs=()
    for _ in $(seq "$repeats"); do runs+=("$("$sim" bench --parse "$1" --json | field fixes_per_s)"); done
    printf '%s\n' "${runs[@]}" | median
}

nmea="$(ours "$data/track_city.nmea")"
floor="$(rate_of 1000000 "$data/build/nmea_floor" "$data/track_city.nmea")"
gpsdecode_rate="-"
if command -v gpsdecode >/dev/null; then
    gpsdecode_rate="$(rate_of 100000 sh -c "gpsdecode <'$data/track_city_100k.nmea'")"
fi
gpx="$(ours "$data/track_city.gpx")"
xmllint_rate="$(rate_of 1000000 xmllint --stream --noout "$data/track_city.gpx")"
gpsbabel_rate="-"
if command -v gpsbabel >/dev/null; then
    gpsbabel_rate="$(rate_of 100000 gpsbabel -t -i gpx -f "$data/track_city_100k.gpx" -o unicsv -F /dev/null)"
fi
csv="$(ours "$data/positions_city.csv")"
tpv="$(ours "$data/tpv_1m.json")"

peak_mb() {
    /usr/bin/time -f '%M' -o "$data/build/time.txt" "$sim" decode "$1" --json >/dev/null 2>&1
    tail -n 1 "$data/build/time.txt" | awk '{ printf "%.1f", $1 / 1024 }'
}
size_mb() { du -m "$1" | cut -f1; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0) print "-"; else printf "%.1fx", a / b }'; }
echo "| decode (median of $repeats) | repeat-sim items/s | baseline | baseline items/s | ratio |"
echo "|---|---:|---|---:|---:|"
echo "| NMEA 1M fixes | $nmea | C floor parser (nmea_floor.c) | $floor | $(ratio "$nmea" "$floor") |"
echo "| | | gpsdecode (100k file) | $gpsdecode_rate | $(ratio "$nmea" "$gpsdecode_rate") |"
echo "| GPX 1M trkpt | $gpx | xmllint --stream --noout | $xmllint_rate | $(ratio "$gpx" "$xmllint_rate") |"
echo "| | | gpsbabel (100k file) | $gpsbabel_rate | $(ratio "$gpx" "$gpsbabel_rate") |"
echo "| CSV 1M rows | $csv | | | |"
echo "| gpsd JSON 1M TPV | $tpv | | | |"
echo
echo "peak RSS of repeat-sim decode --json:"
echo "  NMEA $(size_mb "$data/big_1g.nmea") MiB file: $(peak_mb "$data/big_1g.nmea") MiB"
echo "  GPX  $(size_mb "$data/big_1g.gpx") MiB file: $(peak_mb "$data/big_1g.gpx") MiB"
