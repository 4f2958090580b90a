//! How a run's recipe is recorded: the launch command, then every resumption or continuation,
//! in checkpoints and in the exported manifest's `training_command`.

/// The command chain after resuming at `step`: `<chain so far> ; resumed at step <step>: <now>`.
pub fn resumed(chain: &str, step: usize, command: &str) -> String {
    format!("{chain} ; resumed at step {step}: {command}")
}

/// `/any/path/native-trainer args` -> `native-trainer args`.
pub fn program_relative(command: &str) -> String {
    match command.split_once(' ') {
        Some((program, rest)) if program.ends_with("native-trainer") => format!("native-trainer {rest}"),
        _ => command.to_string(),
    }
}
