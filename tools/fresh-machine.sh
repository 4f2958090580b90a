#!/usr/bin/env bash
# How long a newcomer waits, measured on this machine as if it were fresh: a clean clone of this
# checkout's HEAD in a new path, an empty target directory, an empty CARGO_HOME (every crate
# downloaded, wasm-bindgen-cli compiled) and an empty npm cache, and only rustup's proxies on the
# PATH from ~/.cargo/bin (tools installed there before are hidden). What it cannot hide: the
# rustup toolchain with its wasm32 target, and the apt packages (Chromium, Mesa's Vulkan).
#
#   bash tools/fresh-machine.sh serve   # seconds to the first page, then to the WebGPU worker
#   bash tools/fresh-machine.sh ci      # seconds for .ci/run (`cargo xtask test`)
#
# WORK (default /tmp/fresh-<mode>) is deleted first and holds the clone, the caches, the log
# (<mode>.log) and times.txt. Nothing else may build on the machine meanwhile.
set -u
MODE=${1:?serve or ci}
WORK=${WORK:-/tmp/fresh-$MODE}
rm -rf "$WORK"; mkdir -p "$WORK/proxies"
git clone -q "$(git rev-parse --show-toplevel)" "$WORK/clone"
for t in cargo rustc rustup rustfmt cargo-fmt cargo-clippy clippy-driver rustdoc; do ln -s "$HOME/.cargo/bin/$t" "$WORK/proxies/$t"; done
export CARGO_HOME=$WORK/cargo-home CARGO_TARGET_DIR=$WORK/target npm_config_cache=$WORK/npm-cache
export PATH=$(echo "$PATH" | sed "s#$HOME/.cargo/bin#$WORK/proxies#g")
cd "$WORK/clone"
say() { echo "$*" | tee -a "$WORK/times.txt"; }
# The host, named: the same steps have taken 1.2-1.6 times the CPU time on one host as on another.
say "fresh-machine $MODE: commit $(git rev-parse --short HEAD), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') MHz), started $(date -u +%FT%TZ)"
start=$(date +%s)
if [ "$MODE" = ci ]; then
  bash .ci/run > "$WORK/ci.log" 2>&1; rc=$?
  say "ci: exit $rc after $(( $(date +%s) - start )) s"
  grep 'step times' "$WORK/ci.log" | tee -a "$WORK/times.txt"
  exit $rc
fi
export PORT=${PORT:-8093}
# Its own process group, so the server and any build under it stop with it.
setsid cargo xtask serve > "$WORK/serve.log" 2>&1 &
pid=$!
url=http://127.0.0.1:$PORT
first=""
while kill -0 $pid 2>/dev/null; do
  now=$(( $(date +%s) - start ))
  if [ -z "$first" ] && curl -sf "$url/nqueens" -o /dev/null && curl -sf "$url/app_bg.wasm" -o /dev/null && curl -sf "$url/worker_cpu_bg.wasm" -o /dev/null; then
    first=$now; say "serve: the first page (/nqueens, the page's wasm, the CPU worker) after $first s"
  fi
  if [ -n "$first" ] && curl -sf "$url/worker_webgpu_bg.wasm" -o /dev/null && curl -sf "$url/worker_webgpu.js" -o /dev/null; then
    say "serve: the WebGPU worker after $now s"; kill -- -$pid; exit 0
  fi
  sleep 5
done
say "serve: stopped before it was done (see $WORK/serve.log)"; exit 1
