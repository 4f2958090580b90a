//! Multi-step arithmetic (the JEPA study's second task, for T-decoder-JEPA): a chain of 2 to 5
//! operations on digits, `7 + 5 * 3 - 8 =`, read left to right with the running value kept
//! modulo 10 (`7 + 5 = 2`, `2 * 3 = 6`, `6 - 8 = 8`), and the model writes the final digit.
//! Nothing in the sequence shows the intermediate values: the answer needs every step, so a
//! model has to carry a state through the whole expression, the kind of structure the T-decoder-JEPA paper
//! hopes its future-span prediction helps.
//!
//! - **Split**: a pure function of the expression's text: FNV-1a-64 `% 100` in `0..15` is test,
//!   `15..20` validation, else train; every part is drawn by rejection from the same seeded
//!   generator, so no test expression is ever trained on.
//! - **Tokens**: PAD 0, BOS 1, `=` 2 (the answer's start), EOS 3, PRED 4 (unused here), digits
//!   5-14, `+ - *` 15-17.

use crate::gram::noise::NoiseSource;
use crate::lm::sft::{Example, Layout};
use crate::tasks::split::{Part, fnv1a64, part_by_hash};

pub const LAYOUT: Layout = Layout { pad: 0, sep: 2, eos: 3, pred: 4 };
pub const BOS: u32 = 1;
const DIGIT0: u32 = 5;
const OP0: u32 = 15;
pub const VOCAB: usize = 18;
/// Longest sequence: BOS, 6 digits and 5 operators, `=`, the answer, EOS.
pub const MAX_LEN: usize = 16;
pub const OPS: [char; 3] = ['+', '-', '*'];

/// One expression: its digits and operators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub digits: Vec<u8>,
    pub ops: Vec<char>,
}

impl Chain {
    /// `7 + 5 * 3 - 8`.
    pub fn text(&self) -> String {
        let mut s = self.digits[0].to_string();
        for (op, d) in self.ops.iter().zip(&self.digits[1..]) {
            s += &format!(" {op} {d}");
        }
        s
    }

    /// Reads `7 + 5 * 3 - 8` (spaces optional); an error says what is wrong.
    pub fn parse(text: &str) -> Result<Chain, String> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() < 5 || chars.len() > 11 || chars.len().is_multiple_of(2) {
            return Err(format!("an expression is 2 to 5 operations on digits, like 7 + 5 * 3; got {text:?}"));
        }
        let mut chain = Chain { digits: Vec::new(), ops: Vec::new() };
        for (i, c) in chars.iter().enumerate() {
            match (i % 2, c) {
                (0, c) if c.is_ascii_digit() => chain.digits.push(*c as u8 - b'0'),
                (1, c) if OPS.contains(c) => chain.ops.push(*c),
                _ => return Err(format!("'{c}' at place {}: expected a {}", i + 1, if i % 2 == 0 { "digit" } else { "+, - or *" })),
            }
        }
        Ok(chain)
    }

    /// The running value after each operation, modulo 10.
    pub fn steps(&self) -> Vec<u8> {
        let mut v = self.digits[0] as i32;
        self.ops
            .iter()
            .zip(&self.digits[1..])
            .map(|(op, &d)| {
                v = match op {
                    '+' => v + d as i32,
                    '-' => v - d as i32,
                    _ => v * d as i32,
                }
                .rem_euclid(10);
                v as u8
            })
            .collect()
    }

    pub fn answer(&self) -> u8 {
        *self.steps().last().expect("at least one operation")
    }

    pub fn part(&self) -> Part {
        let h = fnv1a64(&self.text());
        part_by_hash(h, h % 100 < 15)
    }

    /// The model's two views: `BOS expression` and the answer digit.
    pub fn example(&self) -> Example {
        let mut text = vec![BOS];
        for (i, &d) in self.digits.iter().enumerate() {
            if i > 0 {
                text.push(OP0 + OPS.iter().position(|&o| o == self.ops[i - 1]).unwrap() as u32);
            }
            text.push(DIGIT0 + d as u32);
        }
        Example { text, code: vec![DIGIT0 + self.answer() as u32] }
    }
}

/// The digits a model writes for `chains` (greedy, one token after `=`; `None` where it wrote
/// something else).
pub fn answers(lm: &crate::lm::Lm, chains: &[Chain], k: usize, device: &burn::tensor::Device) -> Vec<Option<u8>> {
    let prompts: Vec<Vec<u32>> = chains.iter().map(|c| LAYOUT.prompt(&c.example().text, k)).collect();
    let mut out = Vec::with_capacity(chains.len());
    for chunk in prompts.chunks(256) {
        out.extend(crate::lm::sft::greedy(lm, chunk, &LAYOUT, 1, device).into_iter().map(|w| w.first().and_then(|&t| digit_of(t))));
    }
    out
}

/// Share of `chains` answered right, overall and by number of operations (2 to 5).
pub fn accuracy(written: &[Option<u8>], chains: &[Chain]) -> (f64, [f64; 4]) {
    let mut by = [(0usize, 0usize); 4];
    for (w, c) in written.iter().zip(chains) {
        let slot = &mut by[c.ops.len() - 2];
        slot.0 += (*w == Some(c.answer())) as usize;
        slot.1 += 1;
    }
    let all = by.iter().map(|b| b.0).sum::<usize>() as f64 / chains.len().max(1) as f64;
    (all, by.map(|(r, n)| r as f64 / n.max(1) as f64))
}

/// The digit a token means.
pub fn digit_of(token: u32) -> Option<u8> {
    (DIGIT0..DIGIT0 + 10).contains(&token).then(|| (token - DIGIT0) as u8)
}

/// A random chain of `part` (2 to 5 operations, uniform), by rejection.
pub fn draw(rng: &mut NoiseSource, part: Part) -> Chain {
    loop {
        let n = 2 + rng.index(4);
        let chain = Chain { digits: (0..=n).map(|_| rng.index(10) as u8).collect(), ops: (0..n).map(|_| OPS[rng.index(3)]).collect() };
        if chain.part() == part {
            return chain;
        }
    }
}

/// The first `n` chains of `part` from a fixed seed (validation, test), without repeats.
pub fn fixed_set(part: Part, n: usize) -> Vec<Chain> {
    let mut rng = NoiseSource::new(0xa417 + part as u64);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        let c = draw(&mut rng, part);
        if seen.insert(c.text()) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_evaluate_left_to_right_mod_ten() {
        let c = Chain::parse("7 + 5 * 3 - 8").unwrap();
        assert_eq!((c.steps(), c.answer()), (vec![2, 6, 8], 8));
        assert_eq!(Chain::parse("0-9*9").unwrap().answer(), 9, "(-9 mod 10 = 1) * 9 = 9");
        assert_eq!(c.text(), "7 + 5 * 3 - 8");
        for bad in ["7", "7 + ", "7 + 5 +", "7 / 5 + 1", "a + 1 + 2", "1+2+3+4+5+6+7"] {
            assert!(Chain::parse(bad).is_err(), "{bad}");
        }
        let ex = c.example();
        assert_eq!(ex.text.len(), 8);
        assert_eq!(ex.code, vec![DIGIT0 + 8]);
        assert_eq!(LAYOUT.sequence(&ex, 0).len(), 11);
    }

    #[test]
    fn parts_are_disjoint_and_fixed_sets_repeat() {
        let test = fixed_set(Part::Test, 200);
        assert!(test.iter().all(|c| c.part() == Part::Test));
        assert_eq!(test, fixed_set(Part::Test, 200));
        let mut rng = NoiseSource::new(1);
        for _ in 0..500 {
            let c = draw(&mut rng, Part::Train);
            assert_eq!(c.part(), Part::Train);
            assert!(LAYOUT.sequence(&c.example(), 0).len() <= MAX_LEN);
        }
    }
}
