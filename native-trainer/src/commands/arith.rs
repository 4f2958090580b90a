//! `eval` for the arithmetic chains' language models (issue 23's second task): the final digit
//! of held-out chains, overall and by number of operations, and the same view probe as the
//! regex task's (the expression's embedding against the answer's).

use burn::tensor::Device;
use engine::lm::probe::{linear_map_r2, mean_cosine, spread, view_embeddings};
use engine::lm::sft::Example;
use engine::tasks::arith::{self, Chain};
use engine::tasks::regex::model::RegexModel;
use engine::tasks::regex::score::Score;
use engine::tasks::split::Part;

/// Held-out chains scored (a fixed set per part).
pub const CHAINS: usize = 2_000;

/// (accuracy as a score, by number of operations, [R^2 of expression ~ W answer, mean cosine,
/// spread of the expression embeddings]).
pub fn measure(model: &RegexModel, k: usize, part: Part, device: &Device) -> (Score, [f64; 4], [f64; 3]) {
    let chains = arith::fixed_set(part, CHAINS);
    let (all, by) = arith::accuracy(&arith::answers(&model.lm, &chains, k, device), &chains);
    let ex = |cs: &[Chain]| cs.iter().map(Chain::example).collect::<Vec<Example>>();
    let fit = arith::fixed_set(Part::Train, CHAINS);
    let (ft, fc) = view_embeddings(&model.lm, &ex(&fit), &arith::LAYOUT, k, device);
    let (tt, tc) = view_embeddings(&model.lm, &ex(&chains), &arith::LAYOUT, k, device);
    let r2 = linear_map_r2(&fc, &ft, &tc, &tt, 1e-2);
    (Score { n: chains.len(), exact: all, semantic: all, malformed: 0.0 }, by, [r2, mean_cosine(&tt, &tc), spread(&tt)])
}
