//! How the trainer writes durations and commands.

/// `93` -> `1m33s`, `7300` -> `2h01m`.
pub fn fmt_duration(s: f64) -> String {
    let s = s.max(0.0) as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// `/any/path/native-trainer args` -> `native-trainer args`.
pub fn program_relative(command: &str) -> String {
    match command.split_once(' ') {
        Some((program, rest)) if program.ends_with("native-trainer") => format!("native-trainer {rest}"),
        _ => command.to_string(),
    }
}
