//! The tests that need no browser, run beside the app's wasm build in `cargo xtask test`: the
//! native test binaries, the independent check and the software-Vulkan check. They leave a core
//! idle much of the time (one binary's last slow test, a single-threaded Python check), which the
//! wasm build fills (docs/testing.md, "How long it takes").
//!
//! The test binaries are run directly, not through `cargo test`: cargo takes the target
//! directory's lock at start, which the app's build holds for minutes at a time. They run as
//! cargo runs them: from their package's folder, with `CARGO_MANIFEST_DIR` set. Each step's output
//! goes to a log file, printed whole once the app's build is done, so the two never interleave.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::step_clock::Step;

/// A test executable `cargo test` would run.
#[derive(Debug, PartialEq)]
pub struct TestBinary {
    /// What cargo prints for it: "engine (lib)", "native-trainer tests/cli".
    pub label: String,
    pub path: PathBuf,
    /// The folder of its Cargo.toml: where cargo runs it, and its `CARGO_MANIFEST_DIR`.
    pub package_dir: PathBuf,
}

/// The test executables among cargo's JSON messages (`--message-format=json-render-diagnostics`):
/// the unit tests of libraries and binaries and the integration tests; not benches or examples,
/// which `cargo test` builds but does not run.
pub fn test_binaries(messages: &str) -> Result<Vec<TestBinary>, String> {
    let mut found = Vec::new();
    for line in messages.lines().filter(|l| l.starts_with('{')) {
        let m: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("cargo's message {line}: {e}"))?;
        if m["reason"] != "compiler-artifact" || m["profile"]["test"] != true {
            continue;
        }
        let Some(path) = m["executable"].as_str() else { continue };
        let kinds: Vec<&str> = m["target"]["kind"].as_array().into_iter().flatten().filter_map(|k| k.as_str()).collect();
        let kind = if kinds.iter().any(|k| ["bench", "example"].contains(k)) {
            continue;
        } else if kinds.contains(&"test") {
            "test"
        } else if kinds.contains(&"bin") {
            "bin"
        } else {
            "lib"
        };
        let manifest = m["manifest_path"].as_str().ok_or("a compiler-artifact message without manifest_path")?;
        let package_dir = Path::new(manifest).parent().ok_or("a manifest path without a folder")?.to_path_buf();
        let package = package_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let name = m["target"]["name"].as_str().unwrap_or("?");
        let label = match kind {
            "test" => format!("{package} tests/{name}"),
            "bin" => format!("{package} (bin {name})"),
            _ => format!("{package} (lib)"),
        };
        found.push(TestBinary { label, path: PathBuf::from(path), package_dir });
    }
    Ok(found)
}

/// Runs `build` (a `cargo test --no-run` with JSON messages on stdout; cargo's progress and
/// diagnostics go to stderr as usual) and returns the test executables it made.
pub fn build(build: &mut Command) -> Result<Vec<TestBinary>, String> {
    build.arg("--message-format=json-render-diagnostics").stdout(Stdio::piped());
    eprintln!("xtask: {build:?}");
    let mut child = build.spawn().map_err(|e| format!("{:?}: {e}", build.get_program()))?;
    let mut messages = String::new();
    for line in BufReader::new(child.stdout.take().expect("stdout is piped")).lines() {
        messages.push_str(&line.map_err(|e| format!("cargo's messages: {e}"))?);
        messages.push('\n');
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the test build failed: {status}"));
    }
    let found = test_binaries(&messages)?;
    if found.is_empty() {
        // Never a lane that passes because it ran nothing.
        return Err("the test build listed no test binary in cargo's messages".into());
    }
    Ok(found)
}

/// One step of the lane: a name, the commands it runs one after another, and the time they may
/// take together before the one running is stopped as hung (with every process it started).
/// The limits and the times they guard are in docs/testing.md ("Time limits").
pub struct LaneStep {
    pub name: &'static str,
    pub commands: Vec<Command>,
    pub limit: Duration,
}

/// The test binaries as one step's commands, each run as cargo runs it.
pub fn commands_for(binaries: &[TestBinary]) -> Vec<Command> {
    binaries
        .iter()
        .map(|b| {
            let mut c = Command::new(&b.path);
            c.current_dir(&b.package_dir).env("CARGO_MANIFEST_DIR", &b.package_dir);
            c
        })
        .collect()
}

/// What the lane did: each step's wall time, and the log of each step.
pub struct LaneReport {
    pub steps: Vec<Step>,
    pub logs: Vec<(&'static str, PathBuf)>,
    pub failures: Vec<String>,
}

/// Runs `steps` one after another, every command of a step even after one fails (so one run
/// names every failing binary), each step's output to `logs/<n>-<name>.log`.
pub fn run(steps: Vec<LaneStep>, logs: &Path) -> LaneReport {
    let mut report = LaneReport { steps: Vec::new(), logs: Vec::new(), failures: Vec::new() };
    if let Err(e) = std::fs::create_dir_all(logs) {
        report.failures.push(format!("{}: {e}", logs.display()));
        return report;
    }
    for (n, step) in steps.into_iter().enumerate() {
        let started = Instant::now();
        let log_path = logs.join(format!("{n}-{}.log", step.name.replace([' ', '(', ')'], "_")));
        let failed_before = report.failures.len();
        let deadline = started + step.limit;
        match File::create(&log_path) {
            Ok(log) => {
                for mut command in step.commands {
                    if let Err(e) = run_into(&mut command, &log, deadline, step.limit) {
                        report.failures.push(format!("{}: {e}", step.name));
                    }
                }
            }
            Err(e) => report.failures.push(format!("{}: {e}", log_path.display())),
        }
        let wall_s = started.elapsed().as_secs();
        let verdict = if report.failures.len() == failed_before { "passed" } else { "FAILED" };
        eprintln!("xtask: {} (beside the app's build): {verdict} in {wall_s} s; output printed after the build", step.name);
        report.steps.push(Step { name: step.name, wall_s, cpu_s: None });
        report.logs.push((step.name, log_path));
    }
    report
}

/// Runs `command` with stdout and stderr into `log`, after a line naming it, in a process group
/// of its own: at `deadline` the whole group is killed (a test binary's own children too) and
/// the step's `limit` named in the error.
fn run_into(command: &mut Command, log: &File, deadline: Instant, limit: Duration) -> Result<(), String> {
    use std::io::Write;
    let mut header = log.try_clone().map_err(|e| e.to_string())?;
    writeln!(header, "xtask: {command:?}").map_err(|e| e.to_string())?;
    let mut child = command
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log.try_clone().map_err(|e| e.to_string())?)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("{:?}: {e}", command.get_program()))?;
    let status = match wait_until(&mut child, deadline)? {
        Some(status) => status,
        None => {
            let message = format!("stopped: still running when the step's {} s limit ran out (a hang?)", limit.as_secs());
            let _ = writeln!(header, "xtask: {message}");
            return Err(format!("{:?} {message}", command.get_program()));
        }
    };
    if status.success() { Ok(()) } else { Err(format!("{:?} failed: {status}", command.get_program())) }
}

/// The child's exit status, or None after killing its process group at `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> Result<Option<std::process::ExitStatus>, String> {
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            // The group's id is the child's pid (`process_group(0)`); `kill -KILL -PGID` ends all of it.
            let _ = Command::new("kill").args(["-s", "KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Prints each step's log whole, under a line naming it.
pub fn print_logs(report: &LaneReport) {
    for (name, path) in &report.logs {
        eprintln!("xtask: ---- {name}: its output ({}) ----", path.display());
        match std::fs::read_to_string(path) {
            Ok(text) => eprint!("{text}"),
            Err(e) => eprintln!("xtask: {}: {e}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artifact(kind: &str, name: &str, test: bool, executable: Option<&str>) -> String {
        serde_json::json!({
            "reason": "compiler-artifact",
            "manifest_path": "/w/engine/Cargo.toml",
            "target": { "kind": [kind], "name": name },
            "profile": { "test": test },
            "executable": executable,
        })
        .to_string()
    }

    #[test]
    fn the_binaries_cargo_test_runs_are_found_and_benches_and_examples_are_not() {
        let messages = [
            artifact("lib", "engine", false, None),
            artifact("lib", "engine", true, Some("/t/engine-1")),
            artifact("test", "fuzz", true, Some("/t/fuzz-2")),
            artifact("bin", "native-trainer", true, Some("/t/nt-3")),
            artifact("bench", "sudoku_solver", true, Some("/t/bench-4")),
            artifact("example", "sudoku_pool", true, Some("/t/example-5")),
            artifact("bin", "native-trainer", false, Some("/t/native-trainer")),
            r#"{"reason":"build-finished","success":true}"#.to_string(),
            "   Compiling engine (a line that is not JSON)".to_string(),
        ]
        .join("\n");
        let found = test_binaries(&messages).unwrap();
        let labels: Vec<&str> = found.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["engine (lib)", "engine tests/fuzz", "engine (bin native-trainer)"]);
        assert_eq!(found[0].path, PathBuf::from("/t/engine-1"));
        assert_eq!(found[0].package_dir, PathBuf::from("/w/engine"));
    }

    #[test]
    fn a_broken_message_is_an_error_not_an_empty_list() {
        assert!(test_binaries("{not json").is_err());
    }

    #[test]
    fn every_command_runs_after_a_failure_and_the_log_keeps_all_output() {
        let dir = std::env::temp_dir().join(format!("xtask-lane-{}", std::process::id()));
        let sh = |script: &str| {
            let mut c = Command::new("sh");
            c.args(["-c", script]);
            c
        };
        let minute = Duration::from_secs(60);
        let report = run(
            vec![
                LaneStep { name: "first", commands: vec![sh("echo one; exit 3"), sh("echo two >&2")], limit: minute },
                LaneStep { name: "second", commands: vec![sh("echo three")], limit: minute },
            ],
            &dir,
        );
        assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
        assert!(report.failures[0].starts_with("first:"));
        let first = std::fs::read_to_string(&report.logs[0].1).unwrap();
        assert!(first.contains("one") && first.contains("two"), "{first}");
        assert!(std::fs::read_to_string(&report.logs[1].1).unwrap().contains("three"));
        assert_eq!(report.steps.iter().map(|s| s.name).collect::<Vec<_>>(), ["first", "second"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_step_past_its_limit_is_stopped_with_its_children_and_named() {
        let dir = std::env::temp_dir().join(format!("xtask-lane-limit-{}", std::process::id()));
        let marker = dir.join("child-still-ran");
        let mut hung = Command::new("sh");
        // A child that would outlive its parent, then a parent that hangs.
        hung.args(["-c", &format!("(sleep 2; touch {}) & sleep 30", marker.display())]);
        let started = Instant::now();
        let report = run(vec![LaneStep { name: "hung", commands: vec![hung], limit: Duration::from_secs(1) }], &dir);
        assert!(started.elapsed() < Duration::from_secs(10), "the limit did not stop it: {:?}", started.elapsed());
        assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
        assert!(report.failures[0].contains("1 s limit"), "{}", report.failures[0]);
        assert!(std::fs::read_to_string(&report.logs[0].1).unwrap().contains("limit ran out"));
        std::thread::sleep(Duration::from_secs(3));
        assert!(!marker.exists(), "the step's child went on after the step was stopped");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
