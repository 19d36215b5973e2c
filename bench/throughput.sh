#!/usr/bin/env bash
# Throughput of 1, 2 and 4 bot processes on one PostgreSQL, without kills: moves/s and CPU
# per committed move (the bots' and PostgreSQL's), in interleaved rounds so that a machine
# busier at one moment weighs on every size alike, and every other round in reverse order
# (1 2 4, 4 2 1, ...) so that a machine growing busier or quieter through the run does too:
# use an even ROUNDS. Each run is the chaos harness's long run with STIKIS_CHAOS_KILLS=0
# (host/tests/support/chaos.rs samples the CPU from /proc).
#
#     eval "$(bash .ci/postgres.sh)"
#     bash bench/throughput.sh                  # Telegram, 4 rounds of 1, 2 and 4 processes
#     ROUNDS=6 PROCS="1 2" BOT=discord bash bench/throughput.sh
#     PROCS="1 2 2o" bash bench/throughput.sh   # 2o: 2 processes, each press posted to its owner
#     PACE_MS=500 TABLES=200 PROCS="1 2 2o" bash bench/throughput.sh   # paced: same load at each size
#
# Each run: seed 42 (STIKIS_CHAOS_SEED), 30 s (SECS), 24 tables (TABLES), and each person
# presses again as soon as answered (PACE_MS=0). Such a run is bound by each press's latency as
# much as by the CPU; with PACE_MS (STIKIS_CHAOS_PACE_MS: a pause after each press taken) and
# enough tables to keep the machine busy, the moves/s is set by the tables and the pace, and
# the CPU per move is what a move costs at that load. Prints a line a run
# and the means, with each size's ratio to one process. Needs STIKIS_TEST_POSTGRES_URL.
# A size with an "o" (Telegram only) runs behind a balancer that posts each press to its
# table's owner (STIKIS_CHAOS_ROUTE=owner), which no balancer in front of Telegram can: no
# press is handed over, so the difference to the plain size is what the handoffs cost.
# A size with an "s" gives each process its share of the machine's cores as the runtime's
# worker threads (TOKIO_WORKER_THREADS = cores / processes, at least 1), as
# docs/operations.md advises for several processes on one machine; without it each process
# runs as many as the machine has cores.
#     PACE_MS=500 TABLES=200 PROCS="1 2 2s" bash bench/throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BOT="${BOT:-telegram}"
ROUNDS="${ROUNDS:-4}"
PROCS="${PROCS:-1 2 4}"
SECS="${SECS:-30}"
TABLES="${TABLES:-24}"
SEED="${SEED:-42}"
PACE_MS="${PACE_MS:-0}"
: "${STIKIS_TEST_POSTGRES_URL:?set it first: eval \"\$(bash .ci/postgres.sh)\"}"
case " $PROCS " in
    *o\ *) [ "$BOT" = telegram ] || { echo "sizes with an o need BOT=telegram (only its harness routes to owners)" >&2; exit 2; } ;;
esac

# Built once, so that no run includes a build.
cargo test --release -p "stikis-$BOT" --test all --no-run >&2

out="$(mktemp -d)"
reversed="$(echo $PROCS | tr ' ' '\n' | tac | tr '\n' ' ')"
for r in $(seq 1 "$ROUNDS"); do
    order="$PROCS"
    [ $((r % 2)) -eq 0 ] && order="$reversed"
    for size in $order; do
        n="${size%[os]}"
        route=""
        [ "${size%o}" != "$size" ] && route=owner
        threads=()
        [ "${size%s}" != "$size" ] && threads=(env TOKIO_WORKER_THREADS=$(( $(nproc) / n > 0 ? $(nproc) / n : 1 )))
        log="$out/r$r-p$size.log"
        STIKIS_CHAOS_SEED="$SEED" STIKIS_CHAOS_KILLS=0 STIKIS_CHAOS_SECS="$SECS" \
            STIKIS_CHAOS_TABLES="$TABLES" STIKIS_CHAOS_PROCS="$n" STIKIS_CHAOS_ROUTE="$route" \
            STIKIS_CHAOS_PACE_MS="$PACE_MS" \
            "${threads[@]}" cargo test --release -p "stikis-$BOT" --test all chaos_long -- --ignored --nocapture \
            >"$log" 2>&1 || { echo "round $r, $size processes failed: $log" >&2; exit 1; }
        python3 - "$log" "$r" "$size" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
mps = re.search(r"([0-9]+) moves/s during the chaos", text)
cpu = re.search(r"per move: bots ([0-9.]+) ms, PostgreSQL ([0-9.]+) ms, both ([0-9.]+) ms \(the harness ([0-9.]+) ms\)", text)
if not (mps and cpu):
    sys.exit(f"no figures in {sys.argv[1]}")
size = sys.argv[3]
label = {"o": f"{size[:-1]} processes posted to owners", "s": f"{size[:-1]} processes sharing the cores"}.get(size[-1], f"{size} processes")
print(f"round {sys.argv[2]}, {label}: {mps.group(1)} moves/s, CPU ms per move: "
      f"{cpu.group(3)} (bots {cpu.group(1)}, PostgreSQL {cpu.group(2)}; the harness {cpu.group(4)})")
PY
    done
done | tee "$out/rounds.txt"

python3 - "$out/rounds.txt" <<'PY'
import re, sys
runs = {}
# Each round's CPU a move over the harness's own (its work a move is the same at every size):
# the machine's speed, which drifts from run to run by more than the effect measured, cancels.
rounds = {}
for line in open(sys.argv[1]):
    m = re.match(r"round (\d+), (\d+ processes(?: posted to owners| sharing the cores)?): (\d+) moves/s, CPU ms per move: ([0-9.]+) \(bots ([0-9.]+), PostgreSQL ([0-9.]+); the harness ([0-9.]+)\)", line)
    if m:
        runs.setdefault(m.group(2), []).append(tuple(float(x) for x in m.groups()[2:]))
        rounds.setdefault(m.group(1), {})[m.group(2)] = float(m.group(4)) / float(m.group(7))
mean = lambda xs: sum(xs) / len(xs)
base = None
for n in sorted(runs, key=lambda k: (int(k.split()[0]), k)):
    mps, cpu, bots, pg, harness = (mean([r[i] for r in runs[n]]) for i in range(5))
    if base is None:
        base = (mps, cpu, harness)
    print(f"{n}: {mps:.0f} moves/s ({mps / base[0]:.2f}x), CPU {cpu:.3f} ms a move "
          f"({cpu / base[1]:.2f}x; bots {bots:.3f}, PostgreSQL {pg:.3f}); the harness {harness:.3f} "
          f"({harness / base[2]:.2f}x)")
first = min(runs, key=lambda k: (int(k.split()[0]), k))
for n in sorted(runs, key=lambda k: (int(k.split()[0]), k)):
    if n == first:
        continue
    ratios = [r[n] / r[first] for r in rounds.values() if n in r and first in r]
    if ratios:
        print(f"{n}: CPU a move over the harness's, against {first}: {mean(ratios):.3f}x "
              f"(rounds {min(ratios):.3f}-{max(ratios):.3f}x)")
PY
echo "logs: $out" >&2
