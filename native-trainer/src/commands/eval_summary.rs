//! The summary table `eval` prints after several `--weights`: one row per weights file, its
//! model, variant, decoding and result (the GRAM paper's Table 10 when the weights are a
//! preset's variants).

/// One row of the summary table that `eval` prints after several weights.
pub struct SummaryRow {
    pub weights: String,
    pub model: String,
    pub variant: String,
    pub decoding: String,
    pub result: String,
}

impl SummaryRow {
    /// A row of weights that have no variants (the grammar and tree studies).
    pub fn plain(weights: String, model: &str, decoding: &str, result: &str) -> SummaryRow {
        SummaryRow { weights, model: model.into(), variant: "-".into(), decoding: decoding.into(), result: result.into() }
    }
}

/// The summary of several evaluations, one row per weights file (the GRAM paper's Table 10 when the
/// weights are a preset's variants).
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let mut s = String::from(
        "\nSummary (one row per --weights):\n| weights | model | variant | decoding | result |\n| --- | --- | --- | --- | --- |\n",
    );
    for r in rows {
        s.push_str(&format!("| {} | {} | {} | {} | {} |\n", r.weights, r.model, r.variant, r.decoding, r.result));
    }
    s
}
