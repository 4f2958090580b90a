//! `train --help` groups the flags by the family of presets they apply to, and every flag of a
//! family given to another family's preset is refused before anything runs (exit 2), naming the
//! flag and the family. The headings are read from the help a user reads.

mod common;
use common::{bin, scratch};

/// A preset of each family, and the family's name as the refusals say it.
const FAMILIES: [(&str, &str); 4] =
    [("gram-nqueens8", "GRAM/TRM"), ("reasoner-tree-pretrain", "JEPA-Reasoner"), ("grammar-small", "grammar"), ("regex-lm", "JEPA-LM")];

/// The families each heading's flags apply to (the contract this test holds the code to).
fn applies(heading: &str) -> &'static [&'static str] {
    match heading {
        "GRAM/TRM presets" | "GRAM/TRM presets: the training data (Sudoku, ARC)" => &["GRAM/TRM"],
        "GRAM/TRM and grammar presets" => &["GRAM/TRM", "grammar"],
        "JEPA-LM presets" => &["JEPA-LM"],
        "JEPA-Reasoner phases" => &["JEPA-Reasoner"],
        "Grammar presets" => &["grammar"],
        other => panic!("a heading this test does not know: {other:?}"),
    }
}

/// `train --help`'s headings other than the shared "Options", each with its flags and whether
/// each takes a value.
fn family_flags() -> Vec<(String, Vec<(String, bool)>)> {
    let out = bin().args(["train", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let mut sections: Vec<(String, Vec<(String, bool)>)> = Vec::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            sections.push((line.trim_end_matches(':').to_string(), Vec::new()));
        } else if let Some(flag) = flag_line(line).and_then(|l| l.split_whitespace().find(|w| w.starts_with("--"))) {
            let flag = flag.trim_end_matches(',').to_string();
            let takes_value = line.contains(&format!("{flag} <"));
            if let Some((_, flags)) = sections.last_mut() {
                flags.push((flag, takes_value));
            }
        }
    }
    sections.retain(|(heading, _)| heading != "Options" && !heading.starts_with("Usage"));
    sections
}

/// A line that names a flag (`  -h, --help`, `      --lr <LR>`), not one of its description's
/// (indented further, and they may mention other flags).
fn flag_line(line: &str) -> Option<&str> {
    let text = line.trim_start();
    (line.len() - text.len() <= 6 && text.starts_with('-')).then_some(text)
}

#[test]
fn train_help_groups_the_flags_by_family() {
    let sections = family_flags();
    let headings: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
    for want in ["GRAM/TRM presets", "JEPA-LM presets", "JEPA-Reasoner phases", "Grammar presets"] {
        assert!(headings.contains(&want), "train --help has no {want:?} heading: {headings:?}");
    }
    let all: Vec<&str> = sections.iter().flat_map(|(_, f)| f.iter().map(|(f, _)| f.as_str())).collect();
    for flag in ["--lr", "--beta", "--givens", "--init-from", "--jepa-lambda", "--from", "--phases", "--d-model", "--devices"] {
        assert!(all.contains(&flag), "{flag} is under no family's heading");
    }
}

#[test]
fn every_family_flag_given_to_another_family_is_refused_naming_both() {
    let dir = scratch("misapplied");
    let mut checked = 0;
    for (heading, flags) in family_flags() {
        for (preset, family) in FAMILIES.iter().filter(|(_, f)| !applies(&heading).contains(f)) {
            for (flag, takes_value) in &flags {
                let mut cmd = bin();
                cmd.args(["train", "--preset", preset, "--run-dir"]).arg(dir.join("run")).arg(flag);
                if *takes_value {
                    cmd.arg(if flag == "--givens" { "17-31" } else { "1" });
                }
                let out = cmd.output().unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{flag} on {preset}: {err}");
                let says = format!("{flag} is for {heading}; {preset} is a {family} preset");
                assert!(err.contains(&says), "{flag} on {preset} should say {says:?}: {err}");
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "only {checked} misapplied flags were tried");
    assert!(!dir.join("run").exists(), "nothing was trained");
    let _ = std::fs::remove_dir_all(&dir);
}
