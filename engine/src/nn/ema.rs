//! Exponential moving average of a module's weights (the GRAM paper, appendix D.2: "EMA of the model
//! weights with decay 0.9999", as TRM). The average is what gets evaluated and shipped; the
//! optimiser keeps training the raw weights.
//!
//! `ema <- decay * ema + (1 - decay) * weights`, parameter by parameter. The two modules must have
//! the same structure (the average starts as a copy of the model); the traversal order of
//! [`Module::visit`] and [`Module::map`] is the same, which pairs the parameters up.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::Tensor;

/// Collects every float parameter's current value, flattened, without gradient.
struct Collect {
    values: Vec<Tensor<1>>,
}

impl ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let t = param.val();
        // An autodiff model's tensors become plain ones, so the average never joins a graph.
        let t = if t.is_autodiff() { t.inner() } else { t.detach() };
        let n = t.shape().num_elements();
        self.values.push(t.reshape([n]));
    }
}

/// Blends each parameter of the average with the collected value in the same position.
struct Blend {
    values: std::vec::IntoIter<Tensor<1>>,
    decay: f64,
}

impl ModuleMapper for Blend {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let current = self.values.next().expect("the average and the model have the same parameters");
        let decay = self.decay;
        param.map(|avg| {
            let shape = avg.shape();
            avg * decay + current.reshape(shape) * (1.0 - decay)
        })
    }
}

/// One EMA step: returns `decay * ema + (1 - decay) * model` for every float parameter.
/// `model` may live on an autodiff device; `ema` should not (see [`Module::valid`]).
pub fn ema_update<M: Module>(ema: M, model: &M, decay: f64) -> M {
    let mut collect = Collect { values: Vec::new() };
    model.visit(&mut collect);
    let mut blend = Blend { values: collect.values.into_iter(), decay };
    let ema = ema.map(&mut blend);
    assert!(blend.values.next().is_none(), "the model has more parameters than its average");
    ema
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;
    use burn::nn::{Linear, LinearConfig};
    use burn::tensor::Device;

    fn weights(linear: &Linear) -> Vec<f32> {
        linear.weight.val().floats().unwrap()
    }

    #[test]
    fn ema_step_is_exact_and_leaves_the_model_alone() {
        let device = Device::flex();
        device.seed(1);
        let a = LinearConfig::new(3, 2).init(&device);
        let b = LinearConfig::new(3, 2).init(&device);
        let (wa, wb) = (weights(&a), weights(&b));
        let avg = ema_update(a, &b, 0.9);
        for ((got, x), y) in weights(&avg).iter().zip(&wa).zip(&wb) {
            assert!((got - (0.9 * x + 0.1 * y)).abs() < 1e-6, "{got} vs {}", 0.9 * x + 0.1 * y);
        }
        assert_eq!(weights(&b), wb, "the model is only read");
        let bias = avg.bias.as_ref().unwrap().val().floats().unwrap();
        assert_eq!(bias.len(), 2, "every float parameter is averaged, shapes kept");
    }

    #[test]
    fn repeated_steps_converge_to_a_fixed_model() {
        let device = Device::flex();
        device.seed(2);
        let mut avg = LinearConfig::new(4, 4).init(&device);
        let target = LinearConfig::new(4, 4).init(&device);
        for _ in 0..200 {
            avg = ema_update(avg, &target, 0.95);
        }
        let gap = weights(&avg).iter().zip(weights(&target)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(gap < 1e-3, "0.95^200 ~ 3.5e-5 of the start remains; gap {gap}");
    }

    #[test]
    fn an_autodiff_model_feeds_a_plain_average() {
        let device = Device::flex();
        device.seed(3);
        let model = LinearConfig::new(2, 2).init(&device.clone().autodiff());
        let avg = model.valid();
        let avg = ema_update(avg, &model, 0.5);
        assert!(!avg.weight.val().is_autodiff());
        assert_eq!(weights(&avg), weights(&model.valid()), "an average of equal weights is those weights");
    }
}
