//! The ablations of the GRAM paper's Table 10 (appendix F.5), each a change to one line of the
//! transition (eq. 7: h = u + eps, eps ~ N(mu, sigma^2 I)) or of z0, selected by
//! [`GramConfig::ablation`](super::GramConfig) so that a variant trains and samples through the
//! same code as the model it ablates. The sixth row, TRM with stochastic decoding, changes only
//! how an answer is read from the logits: [`Decoding`](super::sample::Decoding).

use burn::tensor::Tensor;
use serde::{Deserialize, Serialize};

use super::guidance::Gaussian;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ablation {
    /// "w/o guide (stochasticity only)": eps ~ N(0, sigma^2 I). Prior and posterior keep their
    /// learned variance; their means are fixed at 0, so the noise cannot point anywhere.
    NoGuide,
    /// "w/o stochasticity (guide only)": eps = mu, the posterior's mean in training and the
    /// prior's at inference; sigma is never drawn from (the KL term is kept as in GRAM).
    NoStochasticity,
    /// "w/ direct prediction": h ~ N(mu, sigma^2 I) instead of h = u + eps.
    DirectPrediction,
    /// "TRM w/ random initialization": a TRM whose z0 is drawn from N(0, I) afresh for every
    /// trajectory (every position and channel), in training and at inference.
    RandomInit,
}

impl Ablation {
    /// Every ablation, by the name `--variant` takes.
    pub const ALL: [Ablation; 4] = [Ablation::NoGuide, Ablation::NoStochasticity, Ablation::DirectPrediction, Ablation::RandomInit];

    pub fn name(self) -> &'static str {
        match self {
            Ablation::NoGuide => "no-guide",
            Ablation::NoStochasticity => "no-stochasticity",
            Ablation::DirectPrediction => "direct-prediction",
            Ablation::RandomInit => "random-init",
        }
    }

    pub fn parse(text: &str) -> Option<Ablation> {
        Ablation::ALL.into_iter().find(|a| a.name() == text)
    }

    /// Whether the ablation needs the guidance heads (GRAM) or removes them (TRM).
    pub fn guided(self) -> bool {
        self != Ablation::RandomInit
    }
}

/// The guidance Gaussian as the ablation uses it.
pub fn shape(ablation: Option<Ablation>, g: Gaussian) -> Gaussian {
    match ablation {
        Some(Ablation::NoGuide) => Gaussian { mean: g.mean.zeros_like(), logvar: g.logvar },
        _ => g,
    }
}

/// The noise scale a draw uses: 0 (the mean) without stochasticity.
pub fn scale(ablation: Option<Ablation>, scale: f64) -> f64 {
    if ablation == Some(Ablation::NoStochasticity) { 0.0 } else { scale }
}

/// h from u and the drawn eps: u + eps (eq. 7), or the draw itself for direct prediction.
pub fn combine(ablation: Option<Ablation>, u: Tensor<3>, eps: Tensor<3>) -> Tensor<3> {
    if ablation == Some(Ablation::DirectPrediction) { eps } else { u + eps }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Ablation::ALL {
            assert_eq!(Ablation::parse(a.name()), Some(a));
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(json, format!("\"{}\"", a.name()));
        }
        assert_eq!(Ablation::parse("none"), None);
    }
}
