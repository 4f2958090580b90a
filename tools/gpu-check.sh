#!/usr/bin/env bash
# Does native-trainer train on this machine's GPU, correctly, and how fast beside its own CPU?
# `cargo xtask gpu-check` builds the GPU trainer and runs this; docs/gpu.md explains the table.
# Run from the repository root. Needs no network. Every part is guarded against a hang
# (tools/hang-guard.sh): stopped when it has used no CPU time for STALL_S seconds, or once it has
# used a cap of CPU-seconds (never by wall time, which a busy host stretches).
#
#   BIN             a `--features wgpu` build of native-trainer (required)
#   EXTRA           more GPU builds to time beside it, "label=path ...", e.g.
#                   "unfused=/x/native-trainer-unfused spirv=/x/native-trainer-vulkan"
#   PRESET          the full-size preset to time (gram-nqueens8-full)
#   STEPS           GPU steps per timing (4; step 1 compiles the kernels and is reported apart)
#   ONLY            "correctness": the adapter and the loss check only (what CI runs)
#   ALLOW_SOFTWARE  1: run on a software adapter (lavapipe, llvmpipe) instead of stopping there
#   REQUIRE_ADAPTER 1: finding no adapter to check fails (CI, where lavapipe is installed)
#   WORK            where runs go (a fresh temporary directory)
#   STALL_S         seconds without a CPU-second of progress that stop a part as hung (120)
#
# Exit status: 0 when the check passed or there is no GPU to check, 1 when a check failed (the
# GPU's losses differ from the CPU's, a refusal did not happen), 2 when the binary cannot run.
set -u
BIN=${BIN:?set BIN to a --features wgpu build of native-trainer}
PRESET=${PRESET:-gram-nqueens8-full}; STEPS=${STEPS:-4}; ONLY=${ONLY:-}
WORK=${WORK:-$(mktemp -d /tmp/gpu-check.XXXXXX)}; mkdir -p "$WORK"
TABLE=$WORK/table.md; : > "$TABLE"
STALL_S=${STALL_S:-120}
# shellcheck source=tools/hang-guard.sh
. "$(dirname "$0")/hang-guard.sh"
SOFT=(); [ "${ALLOW_SOFTWARE:-0}" = 1 ] && SOFT=(--allow-software-gpu)
say() { printf '%s\n' "$*"; }
row() { printf "%s\n" "$*" | tee -a "$TABLE"; }

"$BIN" --version >/dev/null 2>&1 || { say "gpu-check: $BIN does not run here"; ldd "$BIN" 2>&1 | grep 'not found'; exit 2; }
say "gpu-check: $BIN ($(nproc) CPU cores; runs in $WORK)"
GPU_NAME=""; HAVE_SMI=0
if command -v nvidia-smi >/dev/null && timeout 20 nvidia-smi >/dev/null 2>&1; then
  HAVE_SMI=1
  GPU_NAME=$(timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)
  say "nvidia-smi: $GPU_NAME"
fi

# 1. The adapter: the trainer names it, or says why there is none, before anything runs.
GUARD_STDOUT=/dev/null guarded "$STALL_S" 120 "$WORK/adapter.err" "$BIN" --backend wgpu "${SOFT[@]}" split --task nqueens8 --part test
rc=$?; ADAPTER_TIME=$GUARD
ADAPTER=$(grep -m1 '^wgpu adapter:' "$WORK/adapter.err" | sed 's/^wgpu adapter: //')
NONE=0; [ "${REQUIRE_ADAPTER:-0}" = 1 ] && NONE=1
if [ $rc -ne 0 ]; then
  if grep -q 'no GPU adapter' "$WORK/adapter.err"; then
    say "no GPU adapter: nothing to check"; sed 's/^/  /' "$WORK/adapter.err"; exit $NONE
  elif grep -q 'software' "$WORK/adapter.err"; then
    say "only a software adapter (${ADAPTER:-?}): nothing to check on a GPU (ALLOW_SOFTWARE=1 checks the code path there)"; exit $NONE
  fi
  say "gpu-check: the trainer failed (exit $rc):"; tail -n 5 "$WORK/adapter.err"; exit 2
fi
row "| adapter | ${ADAPTER}${GPU_NAME:+ (nvidia-smi: $GPU_NAME)}; found in $ADAPTER_TIME |"
row "| CPU | $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') |"

# Refusals. With no Vulkan driver and no EGL vendor there is no adapter at all: a readable
# error and exit 2, never a panic. A software adapter without ALLOW_SOFTWARE is refused by name.
expect_refusal() {  # $1 what, $2 text the error must hold, then env assignments
  local what=$1 text=$2; shift 2
  GUARD_STDOUT=/dev/null guarded "$STALL_S" 120 "$WORK/refusal.err" env "$@" "$BIN" --backend wgpu split --task nqueens8 --part test
  local rc=$? line; line=$(grep '^error:' "$WORK/refusal.err" | grep -v XDG_RUNTIME_DIR | head -n 1 | cut -c1-160)
  if [ $rc -eq 2 ] && grep -q "$text" "$WORK/refusal.err"; then row "| $what | exit 2: $line... |"
  else row "| $what | FAIL: exit $rc, $(tail -n 1 "$WORK/refusal.err" | cut -c1-160) |"; fi
}
expect_refusal "no adapter at all (no Vulkan driver, no EGL vendor)" "no GPU adapter" \
  VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent
case "$ADAPTER" in *software*) expect_refusal "the software adapter, without --allow-software-gpu" "allow-software-gpu" ;; esac

# A training run's log.csv rows as "step seconds loss", one per line.
steps_of() { tail -n +2 "$1/log.csv" 2>/dev/null | awk -F, '{print $1, $2, $4}'; }

# 2. Correctness: the shipped N-Queens model, two steps from the same weights and seed, on the
# CPU and on the GPU; their losses must agree within 1e-3. The GPU's first step compiles and
# autotunes every kernel (~300 autotuning candidates on lavapipe, three quarters of its time):
# 206-253 CPU-seconds under every load measured; its wall time 176 s alone and 1,132 s beside a
# build and two more loads (docs/testing.md, "Time limits").
check() {  # $1 label, $2 its cap of CPU-seconds, then the backend's flags
  local label=$1 cap=$2; shift 2
  guarded "$STALL_S" "$cap" "$WORK/check-$label.out" "$BIN" "$@" train --preset gram-nqueens8-mixer \
    --init-from public/weights/gram-nqueens8.bpk --seed 3 --steps 2 --batch 16 --eval-every 0 --log-every 1 \
    --checkpoint-every 1000000 --run-dir "$WORK/check-$label" || { say "correctness run on $label failed:"; tail -n 5 "$WORK/check-$label.out"; }
  say "correctness run on $label: $GUARD"
  TIMES="$TIMES${TIMES:+; }$label $GUARD"
}
TIMES=""
check cpu 300 --backend flex
check gpu 1500 --backend wgpu "${SOFT[@]}"
VERDICT=$(paste -d' ' <(steps_of "$WORK/check-cpu") <(steps_of "$WORK/check-gpu") | awk '
  NF == 6 { n++; d = $3 - $6; if (d < 0) d = -d; if (d > m) m = d; l = l sprintf(" step %d: CPU %.5f, GPU %.5f;", $1, $3, $6) }
  END { if (n < 2) print "FAIL (a run did not log two steps)"; else printf "%s%s (largest difference %.1e)\n", (m <= 1e-3 ? "pass" : "FAIL"), l, m }')
row "| losses from the same weights and seed (gram-nqueens8-mixer from the shipped gram-nqueens8, batch 16) | $VERDICT; $TIMES |"
# 3. Training's noise, drawn on the device (engine::gram::counter_noise): one seed's draw on the
# CPU and on the GPU. The uniform bits must be equal; the normals within 3e-3, what WGSL allows its
# sin and cos (absolute error 2^-11 on [-pi, pi)) times the largest radius, 5.8.
noise() {  # $1 label, then the backend's flags
  local label=$1; shift
  guarded "$STALL_S" 300 "$WORK/noise-$label.txt" "$BIN" "$@" noise --seed 7 --draw 2 --count 1000003 --out "$WORK/noise-$label.bin"
  NOISE_TIMES="$NOISE_TIMES${NOISE_TIMES:+; }$label $GUARD"
}
NOISE_TIMES=""
noise cpu --backend flex; noise gpu --backend wgpu "${SOFT[@]}"
NOISE=$(python3 - "$WORK" <<'PY'
import struct, sys
w = sys.argv[1]
def bits(side):
    for line in open(f"{w}/noise-{side}.txt"):
        if line.startswith("uniform bits fnv1a64 "):
            return line.split()[-1]
bits = [bits("cpu"), bits("gpu")]
try:
    a, b = (open(f"{w}/noise-{s}.bin", "rb").read() for s in ("cpu", "gpu"))
except OSError as e:
    print(f"FAIL (a draw did not run: {e})"); sys.exit()
n = len(a) // 4
diff = max(abs(x - y) for x, y in zip(struct.unpack(f"<{n}f", a), struct.unpack(f"<{n}f", b[:len(a)])))
ok = bits[0] is not None and bits[0] == bits[1] and len(a) == len(b) and diff <= 3e-3
print(f"{'pass' if ok else 'FAIL'}: uniform bits {bits[0]} (CPU) and {bits[1]} (GPU); {n} normals, largest difference {diff:.1e}")
PY
)
row "| training noise, seed 7, draw 2, 1,000,003 values, CPU against GPU | $NOISE; $NOISE_TIMES |"
if grep -q '| FAIL' "$TABLE" || ! grep -q '| pass' "$TABLE"; then cat "$TABLE"; say "gpu-check: a check failed"; exit 1; fi
if [ "$ONLY" = correctness ]; then cat "$TABLE"; exit 0; fi

# 4. Speed: the full-size preset's step at batch 64 and 768 on each GPU build and on the CPU.
row ""; row "| $PRESET | build | batch | step 1 (s) | later steps (s each) | rows/s | GPU memory (max MiB) | GPU busy (mean % over the run's second half) |"
row "| --- | --- | --- | --- | --- | --- | --- | --- |"
time_run() {  # $1 label  $2 binary  $3 batch  $4 steps  $5 timeout, then the backend's flags
  local label=$1 bin=$2 batch=$3 steps=$4 t=$5 dir=$WORK/time-$1-$3 smi=""; shift 5
  mkdir -p "$dir"
  if [ $HAVE_SMI = 1 ] && [ "$1" != flex ]; then
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 250 > "$dir/smi.csv" 2>/dev/null & smi=$!
  fi
  timeout -k 10 "$t" "$bin" --backend "$@" train --preset "$PRESET" --batch "$batch" --steps "$steps" \
    --eval-every 0 --log-every 1 --checkpoint-every 1000000 --run-dir "$dir" > "$dir/out" 2>&1
  local rc=$?
  [ -n "$smi" ] && { kill "$smi"; wait "$smi"; } 2>/dev/null
  local gpu="- | -"; [ -s "$dir/smi.csv" ] && gpu=$(awk -F', *' '$2+0>m{m=$2+0} {u[NR]=$1+0} END{for(i=int(NR/2)+1;i<=NR;i++){t+=u[i];k++} printf "%d | %d", m, (k?t/k:0)}' "$dir/smi.csv")
  steps_of "$dir" | awk -v l="$label" -v b="$batch" -v g="$gpu" -v rc="$rc" -v t="$t" '
    { n++; s[n] = $1; c[n] = $2 }
    END { if (n == 0) { printf "| | %s | %d | no step in %d s (exit %d) | | | %s |\n", l, b, t, rc, g; exit }
          st = n >= 2 ? (c[n] - c[1]) / (s[n] - s[1]) : 0
          printf "| | %s | %d | %.2f | %s | %s | %s |\n", l, b, c[1], (st > 0 ? sprintf("%.3f", st) : "-"),
                 (st > 0 ? sprintf("%.1f", b / st) : sprintf("%.1f", b / c[1])), g }' >> "$TABLE"
  [ -s "$dir/log.csv" ] && [ "$(steps_of "$dir" | wc -l)" -gt 0 ]
}
time_run "wgpu ($(basename "$BIN"))" "$BIN" 64 "$STEPS" 180 wgpu "${SOFT[@]}" && time_run "wgpu ($(basename "$BIN"))" "$BIN" 768 "$STEPS" 240 wgpu "${SOFT[@]}"
for extra in ${EXTRA:-}; do
  time_run "${extra%%=*}" "${extra#*=}" 768 "$STEPS" 240 wgpu "${SOFT[@]}"
done
time_run "CPU, flex, $(nproc) threads" "$BIN" 64 3 180 flex
time_run "CPU, flex, $(nproc) threads" "$BIN" 768 2 300 flex
cat "$TABLE"
awk -F'|' '$4+0 == 768 && $7+0 > 0 { r[$3] = $7 + 0; if ($3 ~ /CPU/) cpu = $7 + 0 }
  END { for (k in r) if (k !~ /CPU/ && cpu > 0) printf "batch 768:%s is %.1fx the CPU (rows/s)\n", k, r[k] / cpu }' "$TABLE"
say "step 1 includes compiling the kernels (and autotuning them, in the fused builds); rows/s = batch / later steps' mean"
