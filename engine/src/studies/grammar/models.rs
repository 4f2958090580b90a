//! The three model families of the robustness study (the JEPA-Reasoner paper, section 5.2.2, Table 3), all in
//! one weights file so they are compared on the same pretraining and grammar:
//!
//! - **T**: a decoder-only Transformer writing tokens (next-token prediction);
//! - **C**: COCONUT, the same architecture, thinking in continuous latents then writing tokens;
//! - **R**: the JEPA-Reasoner (the first layers of the pretrained Transformer, then SST) with a
//!   **Dual-Talker** and, beside it, a **Mono-Talker**, both trained on the frozen Reasoner.
//!
//! T and C share the Reasoner's architecture (the Reasoner's token embedding on the sphere, QK
//! norm, the tied LM head), so the three differ only in how they are trained and run. Blocks are
//! split as the paper's Table 3: the Reasoner's layers plus its Talker's encoder and decoder
//! layers equal the Transformer's layers.

use burn::config::Config;
use burn::module::{Module, ModuleMapper, Param};
use burn::tensor::{Device, Tensor};

use super::data::{GrammarVariant, VOCAB, WINDOW};
use crate::reasoner::{Reasoner, ReasonerConfig, Talker, TalkerConfig, TalkerKind};

#[derive(Config, Debug, PartialEq)]
pub struct GrammarConfig {
    pub variant: GrammarVariant,
    /// `small` or `middle`: the name of the scale.
    pub scale: String,
    /// T and C (and the pretraining R starts from).
    pub coupled: ReasonerConfig,
    /// R's layers (the first ones of the pretrained model).
    pub reasoner_layers: usize,
    /// Both Talkers' shape (`kind` is set per Talker).
    pub talker: TalkerConfig,
}

impl GrammarConfig {
    /// A scale of `variant`: width 128 (attention 128, SwiGLU 256, 4 heads); `small`: T/C 4
    /// layers, R 2 + Talker 1 + 1; `middle`: T/C 6 layers, R 4 + Talker 1 + 1.
    pub fn scale(variant: GrammarVariant, scale: &str) -> Option<GrammarConfig> {
        let (layers, reasoner) = match scale {
            "small" => (4, 2),
            "middle" => (6, 4),
            _ => return None,
        };
        let d = 128;
        let coupled = ReasonerConfig::new(VOCAB, variant.max_tokens() + 2 * WINDOW).with_d_model(d).with_n_layers(layers);
        let talker = TalkerConfig::new(TalkerKind::Dual, VOCAB, WINDOW + 1, d).with_n_layers(1).with_n_encoder(1);
        Some(GrammarConfig { variant, scale: scale.into(), coupled, reasoner_layers: reasoner, talker })
    }

    pub fn init(&self, device: &Device) -> GrammarModels {
        let t = self.coupled.init(device);
        GrammarModels {
            c: t.clone(),
            r: t.clone().first_layers(self.reasoner_layers),
            t,
            dual: TalkerConfig { kind: TalkerKind::Dual, ..self.talker.clone() }.init(device),
            mono: TalkerConfig { kind: TalkerKind::Mono, ..self.talker.clone() }.init(device),
        }
    }
}

/// What a grammar weights file holds.
#[derive(Module, Debug)]
pub struct GrammarModels {
    pub t: Reasoner,
    pub c: Reasoner,
    pub r: Reasoner,
    pub dual: Talker,
    pub mono: Talker,
}

impl GrammarModels {
    /// After pretraining (which trains `t`): C becomes a copy of T and R the first
    /// `reasoner_layers` layers of T, its target encoder a copy of its embedding (SST's start).
    /// The copies get parameters of their own (new ids), never shared with T's.
    pub fn branch_after_pretraining(self, config: &GrammarConfig) -> GrammarModels {
        let c = self.t.clone().map(&mut FreshParams);
        GrammarModels { c, ..self }.rebranch_reasoner(config.reasoner_layers)
    }

    /// R anew from T: its first `reasoner_layers` layers with parameters of their own, its
    /// target encoder a copy of its embedding (SST's start). What pretraining ends with, and
    /// how a run measures another depth of R from trained weights (`--reasoner-layers`).
    pub fn rebranch_reasoner(self, reasoner_layers: usize) -> GrammarModels {
        let r = self.t.clone().map(&mut FreshParams).first_layers(reasoner_layers).reset_target();
        GrammarModels { r, ..self }
    }
}

/// Gives every parameter a new id (same values, same trainability): a copy that an optimiser
/// and the gradients treat as a module of its own.
struct FreshParams;

impl ModuleMapper for FreshParams {
    fn map_float<const D: usize>(&mut self, p: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let value = p.val();
        let trainable = value.is_require_grad();
        Param::from_tensor(value).set_require_grad(trainable)
    }
}

/// Which model answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum GrammarModel {
    /// The Transformer.
    T,
    /// COCONUT.
    C,
    /// The Reasoner with the Dual-Talker.
    R,
    /// The Reasoner with the Mono-Talker.
    RMono,
}

impl GrammarModel {
    pub fn parse(text: &str) -> Option<GrammarModel> {
        Some(match text {
            "t" => GrammarModel::T,
            "c" => GrammarModel::C,
            "r" => GrammarModel::R,
            "r-mono" => GrammarModel::RMono,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            GrammarModel::T => "t",
            GrammarModel::C => "c",
            GrammarModel::R => "r",
            GrammarModel::RMono => "r-mono",
        }
    }
}
