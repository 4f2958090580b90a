//! `/nqueens`: the board and the model, on top of the shared [`Sampling`] parameters.

use engine::tasks::TokenTask;
use engine::tasks::nqueens::{Board, NQueens, Part, puzzles, removed_counts};

use crate::url_state::gram_page::{GramSettings, Model, PageInput};
use crate::url_state::sampling::Sampling;
use crate::url_state::sized::{HeldOut, size_of_text};

/// Board sides with shipped models (`gram-nqueens8`, `gram-nqueens10`, and their TRMs).
pub const SIDES: [usize; 2] = [8, 10];
/// Largest N the page (and the worker) accepts.
pub const MAX_SAMPLES: usize = crate::url_state::sampling::MAX_SAMPLES;

/// What a teacher shares on `/nqueens`: the board, the model, and how to sample.
pub type NQueensSettings = GramSettings<Board>;

impl NQueensSettings {
    /// Side of the board on screen, and of the model that solves it.
    pub fn side(&self) -> usize {
        self.puzzle.n()
    }
}

/// The held-out (test) puzzles of each board side, built once per side: the default board and
/// "New puzzle" draw from them. Sides other than [`SIDES`] have none.
static HELD_OUT: HeldOut<Board> = HeldOut::new(SIDES, |side| puzzles(side, Part::Test));

/// The held-out puzzles of one board side.
pub fn held_out(side: usize) -> &'static [Board] {
    HELD_OUT.of(side)
}

/// The first held-out puzzle with the fewest queens removed that the split has (5 on 8x8, 7 on
/// 10x10): a board the model never trained on, with a handful of completions to find.
pub fn default_board(side: usize) -> Board {
    let fewest = removed_counts(side).into_iter().min();
    held_out(side)
        .iter()
        .find(|b| Some(side - b.queen_count()) == fewest)
        .cloned()
        .unwrap_or_else(|| Board::empty(side).expect("8 and 10 are supported"))
}

/// The side a board text is for: 100 cells is 10x10, anything else is read (and, if wrong,
/// reported) as 8x8.
pub fn side_of(text: &str) -> usize {
    size_of_text(text, SIDES, 100)
}

impl PageInput for Board {
    const PATH: &'static str = "/nqueens";
    const KEY: &'static str = "board";
    const DEFAULT_NAME: &'static str = "the default board";
    const MAX_SAMPLES: usize = MAX_SAMPLES;
    const SIZES: &'static [usize] = &SIDES;
    const SIZE_NAME: &'static str = "the board's size";

    fn default_of(side: usize) -> Self {
        default_board(side)
    }
    fn held_out(side: usize, pick: usize) -> Option<Self> {
        HELD_OUT.pick(side, pick).cloned()
    }
    fn size(&self) -> usize {
        self.n()
    }
    fn read(text: &str) -> Result<Self, String> {
        Board::parse(text, side_of(text)).map_err(|e| e.to_string())
    }
    fn text(&self) -> String {
        self.to_text()
    }
    /// `gram-nqueens8`, `trm-nqueens10`, ...
    fn weights(&self, model: Model) -> String {
        format!("{}-nqueens{}", model.key(), self.n())
    }
    fn default_sampling(size: usize) -> Sampling {
        Sampling::from_defaults(&NQueens::new(size).inference_defaults())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::UrlState;
    use crate::url_state::query::decode;

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let mut s = NQueensSettings::default();
        s.sampling.samples = 7;
        s.sampling.scale = 2.5;
        s.model = Model::Trm;
        s.sampling.run = true;
        assert_eq!(NQueensSettings::from_query(&s.to_query()), (s, vec![]));
        let (d, notes) = NQueensSettings::from_query("n=abc&scale=9&board=QQ&x=1");
        assert_eq!(d, NQueensSettings::default());
        assert_eq!(notes.len(), 4, "{notes:?}");
    }

    /// The exact query and notes of today's links (shared links must keep working).
    #[test]
    fn the_url_contract() {
        let d = NQueensSettings::default();
        assert_eq!(d.to_query(), format!("size=8&board={}&model=gram&n=20&scale=1&seed=0&steps=8&stop=0", default_board(8).to_text()));
        assert_eq!(default_board(8).queen_count(), 3, "the default board: a held-out puzzle with 5 queens removed");
        assert_eq!(default_board(10).queen_count(), 3, "10x10: a held-out puzzle with 7 queens removed");
        let (s, notes) = NQueensSettings::from_query("?backend=webgpu&n=4&steps=3&model=trm&seed=9&run=1");
        assert_eq!(
            s.sampling,
            Sampling {
                samples: 4,
                scale: 1.0,
                seed: 9,
                steps: 3,
                stop: false,
                restarts: 0,
                copies: false,
                copies_free: false,
                noise: 0.0,
                backend: crate::protocol::BackendChoice::WebGpu,
                workers: 0,
                run: true
            }
        );
        assert_eq!((s.model, notes.len()), (Model::Trm, 0));
        assert!(s.to_query().ends_with("&model=trm&n=4&scale=1&seed=9&steps=3&stop=0&backend=webgpu&run=1"), "{}", s.to_query());
        let (_, notes) = NQueensSettings::from_query("n=abc&scale=7&board=QQ&model=x&run=2&zz");
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert_eq!(notes[0], "Ignored n=\"abc\" (a whole number from 1 to 64); using 20.");
        assert_eq!(notes[1], "Ignored scale=\"7\" (a number from 0 to 3); using 1.");
        // The reason in the middle is the engine's own wording.
        assert!(notes[2].starts_with("Ignored board=\"QQ\" (") && notes[2].ends_with("); using the default board."), "{notes:?}");
        assert_eq!(notes[3], "Ignored model=\"x\" (gram or trm); using gram.");
        assert_eq!(notes[4], "Ignored unknown parameter \"zz\".");
        // 10x10: the size and a board of that size, in either order; a bad size is noted.
        let ten = default_board(10).to_text();
        for q in [format!("size=10&board={ten}"), format!("board={ten}&size=10"), "size=10".into()] {
            let (s, notes) = NQueensSettings::from_query(&q);
            assert_eq!((s.side(), s.puzzle.to_text(), s.weights(), notes.len()), (10, ten.clone(), "gram-nqueens10".into(), 0), "{q}");
            assert!(s.to_query().starts_with(&format!("size=10&board={ten}&")));
        }
        let (s, notes) = NQueensSettings::from_query(&format!("board={ten}&size=8&model=trm"));
        assert_eq!((s.weights(), s.puzzle), ("trm-nqueens8".to_string(), default_board(8)), "the later value wins");
        assert!(notes.is_empty());
        let (s, notes) = NQueensSettings::from_query("size=9");
        assert_eq!(notes, ["Ignored size=\"9\" (8 or 10); using the board's size."]);
        assert_eq!(s, NQueensSettings::default());
        let lower = "q".to_string() + &".".repeat(63);
        let (s, _) = NQueensSettings::from_pairs(&decode(&format!("board={lower}")));
        assert!(s.puzzle.has_queen(0, 0), "a lower-case q is a queen, as the engine reads it");
    }
}
