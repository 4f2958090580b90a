//! GRAM / TRM weights as a SafeTensors file in PyTorch's conventions, for exchange with a
//! PyTorch implementation (`tests/pytorch`: the reference model and the parity fixtures).
//!
//! Tensor names are this crate's module paths (`block.layers.0.attn.qkv.weight`,
//! `guidance.prior.down.weight`, `h_init`, ...), with PyTorch's two conventions, applied by
//! burn-store's PyTorch adapters in both directions:
//! - a `Linear` weight is stored `[d_out, d_in]` (PyTorch's `nn.Linear`); burn holds it
//!   `[d_in, d_out]`, so it is transposed on the way in and out (biases are `[d_out]` on both);
//! - an `RmsNorm` gain is stored as `weight` (PyTorch's `nn.RMSNorm`); burn calls it `gamma`.
//!
//! Everything else (embedding tables `[V, D]`, the fixed z0 `h_init` / `l_init` `[D]`) is
//! stored as burn holds it. The RoPE tables are not weights (rebuilt from the config), and the
//! config itself is not in the file: the caller supplies it, as with burnpack checkpoints.
//!
//! Loading is strict, each failure a [`WeightsError`]: the bytes parse as SafeTensors, every
//! tensor is f32, the config is one the file can hold, and the file has exactly the model's
//! tensors (none missing, none left over) with the model's shapes.

use burn::tensor::{DType, Device};
use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, SafetensorsStore};

use super::{WeightsError, check_gram_config};
use crate::gram::{Gram, GramConfig};

/// The model's tensors as SafeTensors bytes in PyTorch's layout (see the module docs). The only
/// metadata is `format: pt` (as PyTorch's writers put it): one key, so the same weights always
/// give the same bytes (burn's default metadata is a hash map of three, in no fixed order).
pub fn gram_to_safetensors(model: &Gram) -> Vec<u8> {
    let mut store = SafetensorsStore::from_bytes(None).clear_metadata().metadata("format", "pt").with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store).expect("in-memory SafeTensors");
    store.get_bytes().expect("just written")
}

/// The tensor names of SafeTensors bytes, sorted (for messages and tests).
pub fn safetensors_names(bytes: &[u8]) -> Result<Vec<String>, WeightsError> {
    let mut store = SafetensorsStore::from_bytes(Some(bytes.to_vec()));
    store.keys().map_err(|e| WeightsError::SafeTensors(e.to_string()))
}

/// Loads SafeTensors bytes in PyTorch's layout into a model built from `config`.
pub fn gram_from_safetensors(config: &GramConfig, bytes: &[u8], device: &Device) -> Result<Gram, WeightsError> {
    let mut store = SafetensorsStore::from_bytes(Some(bytes.to_vec())).with_from_adapter(PyTorchToBurnAdapter).allow_partial(true);
    let tensors = store.get_all_tensors().map_err(|e| WeightsError::SafeTensors(e.to_string()))?;
    if let Some(t) = tensors.values().find(|t| t.dtype != DType::F32) {
        return Err(WeightsError::Mismatch(format!("tensor {} is {:?}; weights are f32", t.name, t.dtype)));
    }
    check_gram_config(config, bytes.len())?;
    let mut model = Gram::init(config, device);
    let result = model.load_from(&mut store).map_err(|e| WeightsError::Mismatch(e.to_string()))?;
    if !result.missing.is_empty() || !result.unused.is_empty() {
        let missing: Vec<&str> = result.missing.iter().map(|(path, _)| path.as_str()).collect();
        return Err(WeightsError::Mismatch(format!(
            "tensors missing from the file: {missing:?}; tensors in the file the model has not: {:?}",
            result.unused
        )));
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(mixer: bool, guidance: bool) -> GramConfig {
        GramConfig::new(16, 3)
            .with_d_model(16)
            .with_d_hidden(16)
            .with_d_guidance(16)
            .with_n_heads(2)
            .with_d_token_hidden(8)
            .with_mixer(mixer)
            .with_guidance(guidance)
    }

    /// The names are the module paths with PyTorch's conventions: a linear weight transposed
    /// to `[d_out, d_in]`, a norm's gain called `weight`; export then import is the identity.
    #[test]
    fn names_layout_and_round_trip() {
        let device = Device::flex();
        let model = Gram::init(&tiny(false, true), &device);
        let bytes = gram_to_safetensors(&model);
        let names = safetensors_names(&bytes).unwrap();
        for name in
            ["block.layers.0.attn.qkv.weight", "block.layers.1.norm_mlp.weight", "guidance.posterior.down.weight", "h_init", "lm_head.bias"]
        {
            assert!(names.iter().any(|n| n == name), "{name} not in {names:?}");
        }
        assert!(!names.iter().any(|n| n.ends_with("gamma")), "{names:?}");
        let st = ::safetensors::SafeTensors::deserialize(&bytes).unwrap();
        assert_eq!(st.tensor("block.layers.0.attn.qkv.weight").unwrap().shape(), &[48, 16]);
        assert_eq!(st.tensor("guidance.posterior.gate.weight").unwrap().shape(), &[16, 32]);
        let again = gram_from_safetensors(&tiny(false, true), &bytes, &device).unwrap();
        assert_eq!(gram_to_safetensors(&again), bytes);
        let (_, metadata) = ::safetensors::SafeTensors::read_metadata(&bytes).unwrap();
        assert_eq!(metadata.metadata().as_ref().map(|m| m.len()), Some(1));
    }

    #[test]
    fn wrong_model_or_garbage_is_a_clear_error() {
        let device = Device::flex();
        let gram = gram_to_safetensors(&Gram::init(&tiny(true, true), &device));
        // GRAM weights read as TRM: the guidance tensors are left over.
        let err = gram_from_safetensors(&tiny(true, false), &gram, &device).unwrap_err();
        assert!(matches!(&err, WeightsError::Mismatch(m) if m.contains("guidance.prior")), "{err}");
        // TRM weights read as GRAM: the guidance tensors are missing (the file is too small
        // for the config before any tensor is matched).
        let trm = gram_to_safetensors(&Gram::init(&tiny(true, false), &device));
        let err = gram_from_safetensors(&tiny(true, true), &trm, &device).unwrap_err();
        assert!(matches!(err, WeightsError::Mismatch(_)), "{err}");
        // A wider model: shapes differ.
        let err = gram_from_safetensors(&tiny(true, true).with_d_hidden(32), &gram, &device).unwrap_err();
        assert!(matches!(err, WeightsError::Mismatch(_)), "{err}");
        // Not SafeTensors at all.
        let err = gram_from_safetensors(&tiny(true, true), b"hello", &device).unwrap_err();
        assert!(matches!(err, WeightsError::SafeTensors(_)), "{err}");
    }
}
