//! The guided lessons a teacher runs a class on (`/learn`): each a short sequence of steps, a step
//! being a page's URL state (what the page shows and runs), the part of the page to look at, and
//! two or three sentences on what the class sees. A lesson's step is a link:
//! `PATH?STATE&lesson=ID&step=K`; the page opens in that state and the lesson panel says the rest.
//!
//! Plain Rust, tested natively: every step's state parses with no note on its page.

/// One step: the page state it opens, where to look (a CSS selector the panel outlines), and what
/// the class sees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LessonStep {
    pub title: &'static str,
    /// The page's query (without `?`), as the page's own URL state reads it.
    pub query: &'static str,
    /// CSS selector of what to look at.
    pub look_at: &'static str,
    pub text: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// In the URL: `lesson=ID`.
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// The page it runs on, e.g. `/nqueens`.
    pub path: &'static str,
    pub steps: &'static [LessonStep],
}

pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "generative",
        title: "Deterministic vs generative recursion",
        summary: "The same empty N-Queens board, 20 runs each: TRM always lands on one solution, GRAM's learned noise sends its runs to many.",
        path: "/nqueens",
        steps: &[
            LessonStep {
                title: "One model, one answer",
                query: "size=8&board=................................................................&model=trm&n=20&scale=1&seed=0&steps=16&stop=0&run=1",
                look_at: ".samples",
                text: "TRM refines a latent state 16 times and reads a board from it. It ran 20 times on the empty board, and all 20 samples are the same board: its recursion is deterministic, so the same input always takes the same path. Whatever it answers, coverage can never pass 1 of the 92 solutions (read the counter: the shipped TRM's one board may not even be a solution).",
            },
            LessonStep {
                title: "Noise in every step",
                query: "size=8&board=................................................................&model=gram&n=20&scale=1&seed=0&steps=16&stop=0&run=1",
                look_at: ".samples",
                text: "GRAM is the same recursion with a learned noise added to every step. Its 20 runs start alike but the noise sends them to different solutions: count the distinct boards in the gallery and the rising coverage curve.",
            },
            LessonStep {
                title: "Coverage against samples",
                query: "size=8&board=................................................................&model=gram&n=64&scale=1&seed=0&steps=16&stop=0&run=1",
                look_at: "figure.plot",
                text: "With 64 samples, the curve shows how many of the 92 solutions the samples have found after each one drawn. It climbs fast, then slows as new samples land on solutions already found. TRM's curve stays flat at 1 at most.",
            },
            LessonStep {
                title: "Turn the noise off",
                query: "size=8&board=................................................................&model=gram&n=20&scale=0&seed=0&steps=16&stop=0&run=1",
                look_at: ".samples",
                text: "Guidance scale 0 keeps only the mean of GRAM's noise: GRAM becomes deterministic and its 20 samples are one board again. The variety came from the noise, not from the network.",
            },
            LessonStep {
                title: "Change it while it runs",
                query: "size=8&board=................................................................&model=gram&n=20&scale=0&seed=0&steps=16&stop=0&run=1",
                look_at: ".controls",
                text: "Press Solve, then move the guidance scale slider while the steps play: from the next step on, the samples fan out. Or pick a sample and press Perturb: a burst of noise knocks just that one into another basin.",
            },
        ],
    },
    Lesson {
        id: "width",
        title: "Width scaling: more samples, better answers",
        summary: "On one Sudoku, GRAM with 1, 8 and 32 samples: the vote of more samples is right more often, with no extra training.",
        path: "/sudoku",
        steps: &[
            LessonStep {
                title: "One sample",
                query: "model=gram&n=1&scale=3&seed=0&steps=16&stop=0&run=1",
                look_at: ".vote",
                text: "GRAM solves the puzzle once. Red digits are cells where its grid differs from the exact solver's solution. One noisy run may or may not be right.",
            },
            LessonStep {
                title: "Eight samples vote",
                query: "model=gram&n=8&scale=3&seed=0&steps=16&stop=0&run=1",
                look_at: ".vote",
                text: "Eight runs of the same puzzle, each with its own noise, then a majority vote over the grids. Look at how many samples agree with the vote, and whether the vote is verified.",
            },
            LessonStep {
                title: "The width curve",
                query: "model=gram&n=32&scale=3&seed=0&steps=16&stop=0&run=1",
                look_at: "figure.plot",
                text: "With 32 samples the plot shows, for the first n samples, the share that are right (line) and whether their vote is right (dots). Spending compute on more parallel samples instead of a bigger model is what the paper calls width scaling.",
            },
            LessonStep {
                title: "Who picks the answer",
                query: "model=gram&n=32&scale=3&seed=0&steps=16&stop=0&run=1",
                look_at: "fieldset.pick",
                text: "Switch from the majority vote to the LPRM value: the model's own estimate, shown under each sample, of whether that answer is right. The star marks the sample each rule picks.",
            },
        ],
    },
    Lesson {
        id: "hypersphere",
        title: "Thinking on the hypersphere",
        summary: "The JEPA-Reasoner plans a route through a tree as unit vectors, not words; a separate Talker reads them out.",
        path: "/tree",
        steps: &[
            LessonStep {
                title: "Thoughts are vectors",
                query: "noise=0&seed=0&run=1",
                look_at: "ol.steps",
                text: "After the question the Reasoner writes no words: each box is one thought, a vector of length 1, a point on a 128-dimensional sphere. A separate small model, the Talker, reads each vector as a node of the route.",
            },
            LessonStep {
                title: "Look inside one thought",
                query: "noise=0&seed=0&run=1",
                look_at: ".sibling",
                text: "Choose a thought: its closest token embeddings by cosine, and its position on the plane of the two sibling nodes the route chooses between. One vector could hold both choices at once.",
            },
            LessonStep {
                title: "The path of the thoughts",
                query: "noise=0&seed=0&run=1",
                look_at: "figure.plot.pca",
                text: "The same thoughts on the plane of their two main directions, among the letters of the node embeddings: the numbered path walks from node to node down the tree.",
            },
            LessonStep {
                title: "Push them off the sphere's tokens",
                query: "noise=0.15&seed=0&run=1",
                look_at: "ol.steps",
                text: "Noise of 15% of each thought's largest component, the paper's robustness test. Thoughts that still land near the right node are read correctly; raise the noise on the right to find where the route breaks.",
            },
        ],
    },
    Lesson {
        id: "learning",
        title: "Watch GRAM learn to find many answers while TRM learns one",
        summary: "Both reasoners trained from scratch in the browser on 3-colourings of small graphs: their accuracy climbs alike, their coverage parts.",
        path: "/train",
        steps: &[
            LessonStep {
                title: "Two models, one recipe",
                query: "seed=0&width=32&run=1",
                look_at: ".controls",
                text: "GRAM and TRM start from the same random weights and train on the same graphs, at the same batch and steps, each in its own worker in this browser. The only difference: GRAM adds a learned noise to each reasoning step. Let them train; the status lines count the steps.",
            },
            LessonStep {
                title: "Both learn to colour",
                query: "seed=0&width=32&run=1",
                look_at: ".accuracy-plot",
                text: "Every 25 steps both colour 16 graphs they never saw. Accuracy is the share whose first try has no edge between two vertices of one colour. It climbs for both, slowly: colouring is a search, and a few hundred steps are a short schooling.",
            },
            LessonStep {
                title: "Where they part: coverage",
                query: "seed=0&width=32&run=1",
                look_at: ".coverage-plot",
                text: "Each of those graphs has many proper colourings, often a dozen. Coverage counts how many different ones 10 tries found. TRM repeats one answer, so its coverage stays near one colouring per graph; GRAM's noise sends its tries to different colourings, and its curve rises above TRM's.",
            },
            LessonStep {
                title: "See it for yourself: Try it",
                query: "seed=0&width=32&run=1",
                look_at: ".try-it",
                text: "Press Try it: both models, as they are at this moment, colour the same held-out graph 10 times. TRM's tries are one colouring ten times; GRAM's land on several. The list below marks which of the graph's colourings each model found. Another graph tries the next one.",
            },
            LessonStep {
                title: "Take the weights with you",
                query: "seed=0&width=32&run=1",
                look_at: ".controls",
                text: "Pause, then Download: the weights and a manifest that says they were trained in a browser, with the curve you watched. The trainer on the command line reads them and reproduces the page's last figures.",
            },
        ],
    },
];

pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The query keys a lesson adds to a page's own.
pub const KEYS: [&str; 2] = ["lesson", "step"];

/// The link to step `k` (1-based) of `lesson`: its page, its state, its place in the lesson.
pub fn step_link(lesson: &Lesson, k: usize) -> String {
    let step = &lesson.steps[k - 1];
    format!("{}?{}&lesson={}&step={k}", lesson.path, step.query, lesson.id)
}

/// The lesson and step (1-based) a URL's decoded pairs name, if any and if they exist.
pub fn position(pairs: &[(String, String)]) -> Option<(&'static Lesson, usize)> {
    let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let lesson = lesson(get("lesson")?)?;
    let k = get("step").and_then(|s| s.parse().ok()).unwrap_or(1usize);
    (1..=lesson.steps.len()).contains(&k).then_some((lesson, k))
}

/// The pairs without the lesson's keys: what the page's own state reads.
pub fn page_pairs(pairs: &[(String, String)]) -> Vec<(String, String)> {
    pairs.iter().filter(|(k, _)| !KEYS.contains(&k.as_str())).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::nqueens::url::NQueensSettings;
    use crate::ui::sudoku::url::SudokuSettings;
    use crate::ui::train::url::TrainSettings;
    use crate::ui::tree::url::TreeSettings;
    use crate::url_state::UrlState;
    use crate::url_state::query::decode;

    /// The notes a step's state leaves on its page (none: the page reads it all).
    fn notes(path: &str, query: &str) -> Vec<String> {
        match path {
            "/nqueens" => NQueensSettings::from_query(query).1,
            "/sudoku" => SudokuSettings::from_query(query).1,
            "/tree" => TreeSettings::from_query(query).1,
            "/train" => TrainSettings::from_query(query).1,
            other => panic!("no URL state for {other}"),
        }
    }

    #[test]
    fn every_step_opens_its_page_in_a_state_the_page_reads_whole() {
        assert!(LESSONS.len() >= 3);
        for l in LESSONS {
            assert!(!l.steps.is_empty());
            for (i, s) in l.steps.iter().enumerate() {
                assert_eq!(notes(l.path, s.query), Vec::<String>::new(), "{} step {}", l.id, i + 1);
                assert!(!s.look_at.is_empty() && s.text.len() > 40);
                let link = step_link(l, i + 1);
                let pairs = decode(link.split_once('?').unwrap().1);
                assert_eq!(position(&pairs).map(|(l, k)| (l.id, k)), Some((l.id, i + 1)));
                assert_eq!(
                    notes(l.path, &link.split_once('?').unwrap().1.replace(&format!("&lesson={}&step={}", l.id, i + 1), "")),
                    Vec::<String>::new()
                );
            }
        }
        let lesson_ids: Vec<_> = LESSONS.iter().map(|l| l.id).collect();
        assert_eq!(lesson_ids, ["generative", "width", "hypersphere", "learning"]);
    }

    #[test]
    fn the_empty_board_query_is_the_empty_board() {
        let (s, _) = NQueensSettings::from_query(LESSONS[0].steps[0].query);
        assert_eq!(s.puzzle.queen_count(), 0);
        assert_eq!(s.side(), 8);
    }

    #[test]
    fn positions_outside_a_lesson_are_none_and_page_pairs_drop_the_lesson_keys() {
        let p = |q: &str| position(&decode(q)).map(|(l, k)| (l.id, k));
        assert_eq!(p("lesson=width&step=2"), Some(("width", 2)));
        assert_eq!(p("lesson=width"), Some(("width", 1)));
        assert_eq!(p("lesson=width&step=9"), None);
        assert_eq!(p("lesson=nope&step=1"), None);
        assert_eq!(p("n=3"), None);
        assert_eq!(page_pairs(&decode("n=3&lesson=width&step=2")), decode("n=3"));
    }
}
