//! The in-flight batch of the GRAM/TRM loop (TRM-style deep supervision with a carried latent
//! state): B slots, each a training pair and the supervision steps it has run, and the state z
//! carried into each slot's next supervision step. A slot whose trajectory halted (the Q-head
//! says its answer is right) or used its N_sup steps is refilled with a fresh pair from z0.
//!
//! All of it goes into each checkpoint (the slots in `state.json`, z as `latent.bin`), so a
//! resumed run continues every trajectory where it was.

use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::source::{Pair, TrainSource};
use crate::gram::noise::NoiseSource;
use crate::gram::{Gram, Latent};
use crate::transfer::{self, ReadBack};

/// One slot of the batch: the training pair it holds and how many supervision steps it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub pair: Pair,
    pub steps: usize,
}

pub struct InFlight {
    pub slots: Vec<Slot>,
    /// The carried state, `[B, L, D]` each, detached.
    pub z: Latent,
}

/// Where refilled slots come from: the model's z0, pairs drawn from `data` with `rng`.
pub struct Refill<'a> {
    pub model: &'a Gram,
    pub data: &'a dyn TrainSource,
    pub rng: &'a mut NoiseSource,
    pub n_sup: usize,
}

/// What the refill after a step saw: trajectories that ended, and how many with a valid answer.
pub struct Finished {
    pub count: usize,
    pub valid: usize,
}

impl InFlight {
    /// `b` fresh slots from z0.
    pub fn fresh(model: &Gram, data: &dyn TrainSource, b: usize, seq_len: usize, rng: &mut NoiseSource) -> InFlight {
        let slots = (0..b).map(|_| Slot { pair: data.draw(rng), steps: 0 }).collect();
        InFlight { slots, z: model.start_state(b, seq_len, rng).detach() }
    }

    /// Inputs and targets of the slots, `[B, L]` each (sent as i32: 4 bytes a token).
    pub fn tensors(&self, device: &Device) -> (Tensor<2, Int>, Tensor<2, Int>) {
        let rows = |f: fn(&Pair) -> &Vec<u32>| {
            let flat: Vec<i32> = self.slots.iter().flat_map(|s| f(&s.pair).iter().map(|&t| t as i32)).collect();
            let l = flat.len() / self.slots.len();
            transfer::upload(TensorData::new(flat, [self.slots.len(), l]), device)
        };
        (rows(|p| &p.x), rows(|p| &p.y))
    }

    /// After a supervision step: carries `z`, and refills the slots that halted (positive halting
    /// logit) or used their N_sup steps with fresh pairs, their state rows reset to z0.
    pub fn advance(&mut self, z: Latent, halt_logits: &[f32], rewards: &[f32], refill: Refill) -> Finished {
        let mut finished = Finished { count: 0, valid: 0 };
        let mut reset = vec![0.0f32; self.slots.len()];
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.steps += 1;
            if slot.steps >= refill.n_sup || halt_logits[i] > 0.0 {
                finished.count += 1;
                finished.valid += (rewards[i] > 0.5) as usize;
                *slot = Slot { pair: refill.data.draw(refill.rng), steps: 0 };
                reset[i] = 1.0;
            }
        }
        let (b, l) = (z.h.dims()[0], self.slots[0].pair.x.len());
        let z0 = refill.model.start_state(b, l, refill.rng).detach();
        self.z = reset_rows(z, &z0, &reset).detach();
        finished
    }

    /// Whether every value of the carried state is finite.
    pub fn is_finite(&self) -> bool {
        [&self.z.h, &self.z.l].into_iter().all(|t| t.clone().is_finite().all().into_scalar::<bool>())
    }

    /// z as bytes (h then l, f32 little-endian) and its shape, for `latent.bin`.
    pub fn latent_bytes(&self) -> (Vec<u8>, [usize; 3]) {
        let shape = self.z.h.dims();
        let mut bytes = Vec::new();
        for t in [&self.z.h, &self.z.l] {
            let values: Vec<f32> = t.clone().floats().expect("a float tensor");
            bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        }
        (bytes, shape)
    }

    /// The batch written by [`InFlight::latent_bytes`] and the slots beside it.
    pub fn restore(slots: Vec<Slot>, bytes: &[u8], shape: [usize; 3], device: &Device) -> Result<InFlight, String> {
        let n: usize = shape.iter().product();
        if bytes.len() != 2 * 4 * n || slots.len() != shape[0] {
            return Err(format!("latent.bin holds {} bytes for {} slots of shape {shape:?}", bytes.len(), slots.len()));
        }
        let values: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let tensor = |v: &[f32]| Tensor::<3>::from_data(TensorData::new(v.to_vec(), shape), device);
        let z = Latent { h: tensor(&values[..n]), l: tensor(&values[n..]) };
        Ok(InFlight { slots, z })
    }
}

/// Replaces the state rows of refilled slots by z0. `reset[i]` = 1.0 for a refilled slot.
fn reset_rows(z: Latent, z0: &Latent, reset: &[f32]) -> Latent {
    let b = reset.len();
    let m: Tensor<3> = transfer::upload(TensorData::new(reset.to_vec(), [b, 1, 1]), &z.h.device()); // [B, 1, 1]
    let keep = m.clone().neg() + 1.0;
    Latent { h: z.h * keep.clone() + z0.h.clone() * m.clone(), l: z.l * keep + z0.l.clone() * m }
}
