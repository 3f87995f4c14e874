# The set-up shared by the Scripts/bench-*.sh comparisons; sourced with the
# script's arguments, not run:  source "$(dirname "$0")/bench-common.sh" "$@"
#
# Sets repo, data (DATA_DIR, absolute, outside the repository), shared
# (SHARED_BENCH, default ../shared/bench), repeats (REPEATS, default 3) and
# sim (the release repeat-sim); defines the helpers below.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${1:?usage: $0 DATA_DIR (outside the repository)}"
shared="${SHARED_BENCH:-$repo/../shared/bench}"
repeats="${REPEATS:-3}"
mkdir -p "$data/build"
data="$(cd "$data" && pwd)"
case "$data/" in "$repo/"*) echo "DATA_DIR must be outside the repository" >&2; exit 1 ;; esac
sim="$repo/.build/release/repeat-sim"

# Runs gen_workload.py into $data unless every named file is there.
ensure_workload() {
    local name
    for name in "$@"; do
        if [ ! -f "$data/$name" ]; then
            echo "generating the workload into $data ..." >&2
            ANCHORS_DATA="$data" python3 "$shared/gen_workload.py"
            return
        fi
    done
}

# Builds the release repeat-sim as the README does, the Swift runtime linked in
# (progress on stderr).
build_release() { (cd "$repo" && swift build -c release --static-swift-stdlib --product repeat-sim >&2); }

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# A field of the JSON object on stdin's first line.
field() { python3 -c "import json,sys; print(json.loads(sys.stdin.readline())['$1'])"; }
