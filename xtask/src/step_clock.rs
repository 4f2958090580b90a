//! The clock of `cargo xtask test`'s steps: each step's wall time and, on Linux, the CPU time the
//! whole machine was busy during it (/proc/stat: every core's user, system and interrupt time).
//! Their ratio says how many cores a step kept busy; the sum of busy times over the machine's
//! cores is the least time the whole run can take, however its steps are arranged
//! (docs/testing.md, "How long it takes"). It counts what else runs on the machine too, so it is
//! read on a machine doing nothing else. (A process's own children's times would miss Chromium's
//! renderers, which its browser process never waits for.)

use std::time::Instant;

/// One finished step: its name, wall seconds and busy CPU seconds (None where unmeasured).
pub struct Step {
    pub name: &'static str,
    pub wall_s: u64,
    pub cpu_s: Option<u64>,
}

/// Since boot, over all cores together: the seconds busy (user, nice, system, interrupts) and the
/// seconds stolen (a virtual machine's cores waiting while the host ran something else). From the
/// first line of /proc/stat, in the kernel's USER_HZ ticks (100 a second on every architecture
/// Linux exposes through /proc). None off Linux.
pub fn machine_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    seconds_from_stat(&stat)
}

fn machine_busy_seconds() -> Option<f64> {
    machine_seconds().map(|(busy, _)| busy)
}

/// Parses /proc/stat's `cpu` line: user nice system idle iowait irq softirq steal ...
fn seconds_from_stat(stat: &str) -> Option<(f64, f64)> {
    const USER_HZ: f64 = 100.0;
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let ticks: Vec<u64> = line.split_whitespace().skip(1).map(|t| t.parse().ok()).collect::<Option<_>>()?;
    if ticks.len() < 8 {
        return None;
    }
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
    Some((busy as f64 / USER_HZ, ticks[7] as f64 / USER_HZ))
}

/// Runs `step`, then says how long it took and how long the machine's cores were busy.
pub fn timed<T>(steps: &mut Vec<Step>, name: &'static str, step: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let started = Instant::now();
    let cpu_before = machine_busy_seconds();
    let result = step();
    let wall_s = started.elapsed().as_secs();
    let cpu_s = cpu_before.zip(machine_busy_seconds()).map(|(a, b)| (b - a).round() as u64);
    eprintln!("xtask: {name}: {wall_s} s{}", cpu_s.map(|c| format!(" ({c} busy CPU-s)")).unwrap_or_default());
    steps.push(Step { name, wall_s, cpu_s });
    result
}

/// The summary line `test` ends with: each step's wall time, its busy CPU time in brackets,
/// the totals, and the time the host stole from the machine's cores over the run (`stolen_s`).
pub fn summary(steps: &[Step], wall_total_s: u64, stolen_s: Option<u64>) -> String {
    let each = steps
        .iter()
        .map(|s| match s.cpu_s {
            Some(c) => format!("{} {} ({c})", s.name, s.wall_s),
            None => format!("{} {}", s.name, s.wall_s),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let cpu_total: Option<u64> = steps.iter().map(|s| s.cpu_s).sum();
    let cpu = cpu_total.map(|c| format!(", {c} busy CPU-s in all")).unwrap_or_default();
    let stolen = stolen_s.map(|s| format!(", {s} CPU-s stolen by the host")).unwrap_or_default();
    format!("step times (s; busy CPU-s in brackets): {each}; {wall_total_s} s from start to end{cpu}{stolen}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_is_user_nice_system_and_interrupts_and_steal_is_apart() {
        // user nice system idle iowait irq softirq steal guest guest_nice, in ticks.
        let stat = "cpu  1000 50 200 9000 300 10 20 5 0 0\ncpu0 500 25 100 4500 150 5 10 2 0 0\nintr 1 2 3\n";
        assert_eq!(seconds_from_stat(stat), Some((12.8, 0.05)));
    }

    #[test]
    fn a_short_cpu_line_is_unmeasured_not_zero() {
        assert_eq!(seconds_from_stat("cpu  1 2 3\n"), None);
        assert_eq!(seconds_from_stat("intr 1 2 3\n"), None);
    }

    #[test]
    fn a_busy_child_shows_in_the_machine_s_busy_time_on_linux() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let before = machine_busy_seconds().expect("Linux has /proc/stat");
        // A child kept busy for one to two seconds.
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; end=$(( $(date +%s) + 2 )); while [ $(date +%s) -lt $end ]; do i=$((i+1)); done"])
            .status()
            .expect("sh runs");
        assert!(status.success());
        let after = machine_busy_seconds().expect("Linux has /proc/stat");
        assert!(after - before >= 0.5, "a busy child's CPU time is counted: {before} -> {after}");
    }

    #[test]
    fn the_summary_names_each_step_and_the_totals() {
        let steps = [Step { name: "native build", wall_s: 100, cpu_s: Some(190) }, Step { name: "e2e", wall_s: 50, cpu_s: Some(60) }];
        assert_eq!(
            summary(&steps, 151, Some(7)),
            "step times (s; busy CPU-s in brackets): native build 100 (190), e2e 50 (60); 151 s from start to end, 250 busy CPU-s in all, 7 CPU-s stolen by the host"
        );
        let unmeasured = [Step { name: "fmt", wall_s: 1, cpu_s: None }];
        assert_eq!(summary(&unmeasured, 1, None), "step times (s; busy CPU-s in brackets): fmt 1; 1 s from start to end");
    }
}
