//! Structure-aware mutation of a JSON manifest: a field set to an edge value, nudged, given the
//! wrong type, removed or joined by an unknown one; then, sometimes, text-level edits as well.

use serde_json::{Map, Value, json};

use super::harness::Rng;
use super::mutate::mutate_text;

/// Values a field is set to: zeros, off-by-ones, powers of two, integer and float limits,
/// negatives, fractions, strings naming other models and tasks, and other types.
fn edge_value(rng: &mut Rng) -> Value {
    match rng.below(5) {
        0 | 1 => {
            json!(*rng.pick(&[0u64, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 31, 32, 33, 63, 64, 65, 81, 100, 127, 128, 255, 256, 1000]))
        }
        2 => json!(*rng.pick(&[1u64 << 31, 1 << 32, (1 << 53) + 1, 1 << 62, u64::MAX, 1 << 40, 65_537, 1 << 20])),
        3 => json!(*rng.pick(&[-1.0f64, -0.0, 0.5, 1.5, 1e-308, 1e308, -1e308, 2.5e9, -7.0, f64::EPSILON])),
        _ => rng
            .pick(&[
                json!(""),
                json!("gram"),
                json!("trm"),
                json!("jepa-reasoner"),
                json!("Mono"),
                json!("Dual"),
                json!("Tri"),
                json!("nqueens8"),
                json!("sudoku"),
                json!("tree"),
                json!("é\u{0}🙂"),
                json!(null),
                json!(true),
                json!(false),
                json!([]),
                json!([1, 2]),
                json!({}),
                json!({"a": 1}),
                json!(i64::MIN),
                json!("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
            ])
            .clone(),
    }
}

/// Paths ("/config/d_model", "/eval/extra", "/train_steps/1") to every node but the root.
fn paths(value: &Value, prefix: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{prefix}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                paths(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{prefix}/{i}");
                out.push(p.clone());
                paths(v, p, out);
            }
        }
        _ => {}
    }
}

fn split_parent(path: &str) -> (&str, String) {
    let (parent, last) = path.rsplit_once('/').expect("paths start with /");
    (parent, last.replace("~1", "/").replace("~0", "~"))
}

/// 1-3 structural edits of `seed`, then text edits with probability 1/4. `config_bias`: the
/// share of edits (out of 4) aimed at `/config`, where the loader turns fields into shapes.
pub fn mutate_manifest(rng: &mut Rng, seed: &Value, config_bias: usize) -> String {
    let mut v = seed.clone();
    for _ in 0..1 + rng.below(3) {
        let mut all = Vec::new();
        paths(&v, String::new(), &mut all);
        let config: Vec<&String> = all.iter().filter(|p| p.starts_with("/config/")).collect();
        let path = if !config.is_empty() && rng.below(4) < config_bias {
            (*rng.pick(&config)).clone()
        } else if all.is_empty() {
            break;
        } else {
            rng.pick(&all).clone()
        };
        edit(rng, &mut v, &path);
    }
    let text = if rng.one_in(2) { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) };
    let text = text.expect("a Value serialises");
    if rng.one_in(4) {
        let dict = ["\"", ":", ",", "{", "}", "[", "]", "null", "-", "e999", "1", "\\u0000", "\\ud800", "  "];
        mutate_text(rng, &text, &['"', ':', ',', '0', '9', '{', '}'], &dict, &[])
    } else {
        text
    }
}

fn edit(rng: &mut Rng, root: &mut Value, path: &str) {
    match rng.below(8) {
        0..=3 => {
            if let Some(node) = root.pointer_mut(path) {
                *node = edge_value(rng);
            }
        }
        4 | 5 => {
            if let Some(node) = root.pointer_mut(path) {
                if let Some(n) = node.as_u64() {
                    let delta = 1 + rng.below(3) as u64;
                    let picks = [n.wrapping_add(delta), n.saturating_sub(delta), n.saturating_mul(2), n / 2, 0];
                    *node = json!(*rng.pick(&picks));
                } else if let Some(x) = node.as_f64() {
                    *node = json!(*rng.pick(&[-x, x * 2.0, x + 1.0, x.trunc(), 0.0]));
                } else {
                    *node = edge_value(rng);
                }
            }
        }
        6 => {
            let (parent, key) = split_parent(path);
            match root.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&key);
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = key.parse::<usize>()
                        && i < items.len()
                    {
                        items.remove(i);
                    }
                }
                _ => {}
            }
        }
        _ => {
            let (parent, _) = split_parent(path);
            let value = edge_value(rng);
            match root.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    let key = rng.pick(&["unknown", "d_model", "kind", "extra", ""]).to_string();
                    map.insert(key, value);
                }
                Some(Value::Array(items)) => items.push(value),
                _ => {
                    if let Value::Object(map) = root {
                        map.insert("unknown".into(), Value::Object(Map::new()));
                    }
                }
            }
        }
    }
}
