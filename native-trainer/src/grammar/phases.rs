//! Which phases a grammar run trains: the preset's six, or, beside `--init-from`, only those
//! `--phases` names (the weights' models stand in for the others), each for the preset's steps
//! or `--phase-steps`.

use super::presets::{GrammarPhase, PHASES};
use super::recipe::GrammarFlags;

/// Each phase's steps: the preset's, or `--phase-steps`; with `--phases`, the others get 0.
pub fn phase_steps(preset: [usize; 6], f: &GrammarFlags, init_from: bool) -> Result<[usize; 6], String> {
    if f.phases.is_empty() {
        return match f.phase_steps.len() {
            0 => Ok(preset),
            6 if f.phase_steps.iter().all(|&s| s > 0) => Ok(std::array::from_fn(|i| f.phase_steps[i])),
            _ => Err("--phase-steps without --phases gives all six phases' steps, each at least 1".into()),
        };
    }
    if !init_from {
        return Err("--phases trains some phases on others' models: give them with --init-from W".into());
    }
    let chosen: Vec<GrammarPhase> = f.phases.iter().map(|n| parse_phase(n)).collect::<Result<_, _>>()?;
    if !f.phase_steps.is_empty() && f.phase_steps.len() != chosen.len() {
        return Err(format!("--phase-steps gives {} numbers for {} phases", f.phase_steps.len(), chosen.len()));
    }
    if f.phase_steps.contains(&0) {
        return Err("--phase-steps: a phase trained has at least 1 step".into());
    }
    let mut steps = [0; 6];
    for (k, ph) in chosen.iter().enumerate() {
        let i = PHASES.iter().position(|p| p == ph).expect("a phase");
        steps[i] = f.phase_steps.get(k).copied().unwrap_or(preset[i]);
    }
    Ok(steps)
}

fn parse_phase(name: &str) -> Result<GrammarPhase, String> {
    PHASES.iter().copied().find(|p| p.name() == name.trim()).ok_or_else(|| {
        let names: Vec<&str> = PHASES.iter().map(|p| p.name()).collect();
        format!("--phases: no phase {name:?}; phases: {}", names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(phases: &[&str], steps: &[usize]) -> GrammarFlags {
        GrammarFlags { phases: phases.iter().map(|s| s.to_string()).collect(), phase_steps: steps.to_vec(), ..Default::default() }
    }

    #[test]
    fn phases_pick_their_steps_and_leave_the_others_at_zero() {
        let preset = [1500, 500, 500, 500, 300, 300];
        assert_eq!(phase_steps(preset, &flags(&[], &[]), false), Ok(preset));
        assert_eq!(phase_steps(preset, &flags(&["sst", "dual-talker"], &[]), true), Ok([0, 0, 0, 500, 300, 0]));
        assert_eq!(phase_steps(preset, &flags(&["dual-talker", "sst"], &[900, 40]), true), Ok([0, 0, 0, 40, 900, 0]));
        assert!(phase_steps(preset, &flags(&["sst"], &[]), false).unwrap_err().contains("--init-from"));
        assert!(phase_steps(preset, &flags(&["sst"], &[1, 2]), true).is_err());
        assert!(phase_steps(preset, &flags(&["ssst"], &[]), true).unwrap_err().contains("phases: pretrain"));
        assert!(phase_steps(preset, &flags(&[], &[1, 2, 3]), false).is_err());
        assert!(phase_steps(preset, &flags(&["sst"], &[0]), true).is_err());
    }
}
