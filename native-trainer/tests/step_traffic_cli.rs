//! What a training step moves between the host and its device, as `log.csv` reports it, and the
//! data-parallel path against gradient accumulation, both as the command line runs them.

mod common;
use common::{bin, scratch};

/// `log.csv` as a header and rows of named columns.
fn log_rows(dir: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("log.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), header.len(), "a row's columns differ from the header's: {line}");
            header.iter().cloned().zip(cells.into_iter().map(String::from)).collect()
        })
        .collect()
}

fn number(row: &std::collections::HashMap<String, String>, column: &str) -> f64 {
    row[column].parse().unwrap_or_else(|_| panic!("{column} = {:?}", row[column]))
}

/// The full-size N-Queens preset at batch 8 (D 512, L 64): after the first step, each logged
/// step sends at most B x L x 4 x 2 bytes + 64 KiB and reads as much back at most, in at most 2
/// blocking reads. Before the noise moved to the device a step sent 3.15 MB (docs/speed.md).
#[test]
fn a_full_size_step_moves_the_tokens_and_makes_two_reads() {
    let dir = scratch("traffic");
    let out = bin()
        .args(["train", "--preset", "gram-nqueens8-full", "--batch", "8", "--steps", "3", "--eval-every", "0", "--log-every", "1"])
        .args(["--checkpoint-every", "1000000", "--run-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = log_rows(&dir);
    assert_eq!(rows.len(), 3);
    let bound = (8 * 64 * 4 * 2 + 64 * 1024) as f64;
    for row in &rows[1..] {
        let (up, down, reads) = (number(row, "up_bytes"), number(row, "down_bytes"), number(row, "reads"));
        assert!(up > 0.0 && up <= bound, "step {}: {up} bytes up", row["step"]);
        assert!(down > 0.0 && down <= bound, "step {}: {down} bytes down", row["step"]);
        assert!((1.0..=2.0).contains(&reads), "step {}: {reads} reads", row["step"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--devices 2` (the CPU as both devices) gives the losses of `--grad-accum 2` on one device:
/// the same micro-batches, their noise drawn from the same seeds, the gradients summed on
/// device 0 either way.
#[test]
fn two_devices_give_the_losses_of_two_micro_batches() {
    let losses = |flag: &str| {
        let dir = scratch(&format!("parallel{flag}"));
        let out = bin()
            .args(["train", "--preset", "gram-nqueens8-mixer", "--batch", "8", "--steps", "2", "--eval-every", "0", "--log-every", "1"])
            .args([flag, "2", "--run-dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let losses: Vec<f64> = log_rows(&dir).iter().map(|row| number(row, "loss")).collect();
        let _ = std::fs::remove_dir_all(&dir);
        losses
    };
    let (devices, accumulated) = (losses("--devices"), losses("--grad-accum"));
    assert_eq!(devices.len(), 2);
    for (a, b) in devices.iter().zip(&accumulated) {
        assert!((a - b).abs() <= 1e-4, "--devices 2 {devices:?} against --grad-accum 2 {accumulated:?}");
    }
}
