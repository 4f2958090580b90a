//! `eval` for the arithmetic chains' language models (the JEPA study's second task): the final digit
//! of held-out chains, overall and by number of operations, and the same view probe as the
//! regex task's (the expression's embedding against the answer's).

use burn::tensor::Device;
use engine::lm::probe::probe_views;
use engine::lm::sft::Example;
use engine::studies::arith::{self, Chain};
use engine::studies::regex::model::RegexModel;
use engine::studies::regex::score::Score;
use engine::tasks::split::Part;

/// Held-out chains scored (a fixed set per part).
pub const CHAINS: usize = 2_000;

/// (accuracy as a score, by number of operations, [R^2 of expression ~ W answer, mean cosine,
/// spread of the expression embeddings]).
pub fn measure(model: &RegexModel, k: usize, part: Part, device: &Device) -> (Score, [f64; 4], [f64; 3]) {
    let chains = arith::fixed_set(part, CHAINS);
    let (all, by) = arith::accuracy(&arith::answers(&model.lm, &chains, k, device), &chains);
    let ex = |cs: &[Chain]| cs.iter().map(Chain::example).collect::<Vec<Example>>();
    let p = probe_views(&model.lm, &ex(&arith::fixed_set(Part::Train, CHAINS)), &ex(&chains), &arith::LAYOUT, k, device);
    (Score { n: chains.len(), exact: all, semantic: all, malformed: 0.0 }, by, [p.r2, p.cosine, p.spread])
}
