//! The compact file an ARC import writes (`arc.bin`) and training reads: the grids themselves,
//! one byte per cell (the 900-token canvases are made from them on reading, `Grid::canvas`).
//! Little-endian throughout:
//!
//! ```text
//! magic     8 bytes  "GRAMARC" then version 1
//! tasks     u32
//! per task: name (u16 length, UTF-8), puzzle id (u32), train pairs (u16), test pairs (u16),
//!           then each pair: its input grid, its output grid
//! grid:     rows (u8), cols (u8), rows*cols colours (u8, 0-9); 0x0 = no grid (a test pair
//!           without its output)
//! ```

use super::{ArcTask, Grid, Pair, SIDE};

pub const MAGIC: &[u8; 8] = b"GRAMARC\x01";

/// The file's bytes.
pub fn encode(tasks: &[ArcTask]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend((tasks.len() as u32).to_le_bytes());
    for t in tasks {
        out.extend((t.name.len() as u16).to_le_bytes());
        out.extend(t.name.as_bytes());
        out.extend(t.puzzle_id.to_le_bytes());
        out.extend((t.train.len() as u16).to_le_bytes());
        out.extend((t.test.len() as u16).to_le_bytes());
        for p in t.train.iter().chain(&t.test) {
            put_grid(&mut out, Some(&p.input));
            put_grid(&mut out, p.output.as_ref());
        }
    }
    out
}

fn put_grid(out: &mut Vec<u8>, grid: Option<&Grid>) {
    match grid {
        Some(g) => {
            out.extend([g.rows() as u8, g.cols() as u8]);
            out.extend(g.cells());
        }
        None => out.extend([0, 0]),
    }
}

/// The tasks of a file's bytes; a wrong magic, a truncated file or a bad grid is an error.
pub fn decode(bytes: &[u8]) -> Result<Vec<ArcTask>, String> {
    if bytes.get(..8) != Some(MAGIC) {
        return Err("not an ARC file of this project (its first bytes are not \"GRAMARC\" version 1)".into());
    }
    let mut r = Reader { bytes, at: 8 };
    let count = r.u32()?;
    let mut tasks = Vec::with_capacity(count.min(100_000) as usize);
    for _ in 0..count {
        let len = r.u16()? as usize;
        let name = String::from_utf8(r.take(len)?.to_vec()).map_err(|_| "a task name is not UTF-8".to_string())?;
        let puzzle_id = r.u32()?;
        let (train, test) = (r.u16()? as usize, r.u16()? as usize);
        let mut pairs = Vec::with_capacity(train + test);
        for _ in 0..train + test {
            let input = r.grid()?.ok_or_else(|| format!("task {name:?}: a pair without an input"))?;
            pairs.push(Pair { input, output: r.grid()? });
        }
        let test = pairs.split_off(train);
        if pairs.iter().any(|p| p.output.is_none()) {
            return Err(format!("task {name:?}: a train pair without an output"));
        }
        tasks.push(ArcTask { name, puzzle_id, train: pairs, test });
    }
    if r.at != bytes.len() {
        return Err(format!("{} bytes after the last task", bytes.len() - r.at));
    }
    Ok(tasks)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let out = self.bytes.get(self.at..self.at + n).ok_or_else(|| format!("the file ends early (at byte {})", self.bytes.len()))?;
        self.at += n;
        Ok(out)
    }

    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }

    fn grid(&mut self) -> Result<Option<Grid>, String> {
        let at = self.at;
        let (rows, cols) = (self.take(1)?[0] as usize, self.take(1)?[0] as usize);
        if rows == 0 && cols == 0 {
            return Ok(None);
        }
        if rows > SIDE || cols > SIDE {
            return Err(format!("byte {at}: a {rows}x{cols} grid"));
        }
        let cells = self.take(rows * cols)?;
        let rows = cells.chunks(cols.max(1)).map(<[u8]>::to_vec).collect();
        Grid::new(rows).map(Some).map_err(|e| format!("byte {at}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::arc::json::parse_tasks;

    #[test]
    fn tasks_round_trip_and_damage_is_an_error() {
        let text = r#"{"a": {"train": [{"input": [[1, 2, 3]], "output": [[3], [2], [1]]}], "test": [{"input": [[0]]}]},
                       "b": {"train": [{"input": [[9]], "output": [[8]]}], "test": [{"input": [[5, 5]], "output": [[4]]}]}}"#;
        let tasks = parse_tasks(text, "f", 1).unwrap();
        let bytes = encode(&tasks);
        assert_eq!(decode(&bytes).unwrap(), tasks);
        assert!(decode(&bytes[..bytes.len() - 1]).unwrap_err().contains("ends early"));
        assert!(decode(b"PK\x03\x04....").unwrap_err().contains("not an ARC file"));
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(decode(&extra).unwrap_err().contains("1 bytes after"));
        // Task "a"'s first input cell is byte 8 + 4 + 2 + 1 + 4 + 2 + 2 + 2.
        let mut bad = bytes;
        bad[25] = 12;
        assert!(decode(&bad).unwrap_err().contains("colour 12 is outside 0-9"));
    }
}
