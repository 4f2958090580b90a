# A limit that stops a hang without failing a slow or busy machine: sourced by gpu-check.sh.
#
#   guarded STALL_S CPU_CAP_S OUT command args...
#
# runs the command with its output in OUT and stops it (TERM, then KILL 10 s later) when
#   - it has used less than one CPU-second in the last STALL_S seconds: blocked, not working (a
#     deadlock, a wait that never ends), or
#   - it has used CPU_CAP_S CPU-seconds: working without end (a loop that never ends).
# Both count the work done, not the time it took: a slower or busier host makes a run take longer
# but neither idle nor costlier. The software-Vulkan check compiles and autotunes every kernel on
# the CPU: 206-253 CPU-seconds, 176 s of wall time alone and 1,132 s beside a build and two more
# loads, so a fixed time limit failed it on a busy host for no defect (docs/testing.md, "Time
# limits"). Returns the command's exit status (124 when stopped) and sets GUARD to
# "<wall> s, <CPU> CPU-s (longest spell without a CPU-second: <s> s)" and the reason it was
# stopped, if it was. With GUARD_STDOUT set, the command's stdout goes there instead of OUT.

guarded() {
  local stall=$1 cpu_cap=$2 out=$3; shift 3
  local hz; hz=$(getconf CLK_TCK)
  : > "$out"
  "$@" > "${GUARD_STDOUT:-$out}" 2>> "$out" &
  local pid=$! start=$SECONDS mark_at=$SECONDS mark=0 ticks=0 now idle=0 longest=0 why=""
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    # utime + stime of the process, all its threads together (fields 14 and 15 of /proc/PID/stat).
    now=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || break
    [ -n "$now" ] || break
    ticks=$now
    if [ "$ticks" -ge $(( mark + hz )) ]; then mark=$ticks; mark_at=$SECONDS; fi
    idle=$(( SECONDS - mark_at )); [ "$idle" -gt "$longest" ] && longest=$idle
    if [ "$idle" -ge "$stall" ]; then why="stopped: under 1 CPU-second used in $idle s (a hang)"; break; fi
    if [ "$ticks" -ge $(( cpu_cap * hz )) ]; then why="stopped: $cpu_cap CPU-seconds used (a loop that never ends?)"; break; fi
  done
  if [ -n "$why" ]; then
    kill -TERM "$pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null; local rc=$?
  [ -n "$why" ] && rc=124
  GUARD="$(( SECONDS - start )) s, $(( ticks / hz )) CPU-s (longest spell without a CPU-second: ${longest} s)${why:+; $why}"
  return $rc
}
