//! `noise`: one draw of training's noise (`engine::gram::counter_noise`) on the chosen backend, so
//! a GPU's draws can be held against the CPU's: the 24-bit uniforms as a hash (equal on every
//! backend, bit for bit) and the normals' moments, optionally every normal as f32 little-endian
//! in a file (equal up to the backend's `ln`, `cos` and `sin`). `tools/gpu-check.sh` compares
//! the two.

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::counter_noise::{draw_key, normals, uniform_bits_tensor};
use engine::transfer::ReadBack;

/// FNV-1a over the values' little-endian u32 bytes.
fn fnv1a64(values: &[i64]) -> u64 {
    values.iter().flat_map(|&v| (v as u32).to_le_bytes()).fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

pub fn noise(seed: u64, draw: u64, count: usize, out: Option<&Path>, device: &Device) -> Result<ExitCode, String> {
    if count == 0 || count >= 1 << 31 {
        return Err(format!("--count {count}: a draw holds 1 to 2^31 - 1 values"));
    }
    let key = draw_key(seed, draw);
    let bits: Vec<i64> = uniform_bits_tensor(key, count, device).ints().map_err(|e| e.to_string())?;
    let values: Vec<f32> = normals(key, [count], device).floats().map_err(|e| e.to_string())?;
    let n = values.len() as f64;
    let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n;
    let var = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n;
    println!("noise: seed {seed}, draw {draw}, {count} values");
    println!("uniform bits fnv1a64 {:016x}", fnv1a64(&bits));
    println!("normals mean {mean:.6} variance {var:.6} first {:?}", &values[..values.len().min(4)]);
    if let Some(out) = out {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
