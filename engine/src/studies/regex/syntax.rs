//! The regular-expression syntax the regex task reads and writes: the part of the syntax that
//! Python's `re` and Rust's `regex` crate give the same meaning, with full-match semantics (a
//! regex accepts a line when it matches the whole line, Python's `re.fullmatch`, Rust's
//! `^(?:...)$`).
//!
//! Accepted: literal characters (letters, digits, space and the punctuation `!"#%&',-/:;<=>@_`~`),
//! `.` (any character but a newline), classes `[...]` / `[^...]` of characters and ranges `a-z`,
//! groups `(...)`, alternation `|`, and the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`
//! (counts up to [`MAX_COUNT`]). Everything else (escapes, anchors, lazy quantifiers, `(?...)`)
//! is refused with a message that says what and where, so a judged answer never depends on a
//! corner where the two engines could disagree.

use std::fmt;

/// The largest count `{n}`, `{n,}` or `{n,m}` may use (keeps the automata small).
pub const MAX_COUNT: u32 = 16;

/// A set of characters: the union of `ranges` (inclusive), or everything but them and the
/// newline when `negated` (`.` is the negated empty set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharSet {
    pub negated: bool,
    pub ranges: Vec<(char, char)>,
}

impl CharSet {
    pub fn single(c: char) -> CharSet {
        CharSet { negated: false, ranges: vec![(c, c)] }
    }

    pub fn any() -> CharSet {
        CharSet { negated: true, ranges: Vec::new() }
    }

    pub fn contains(&self, c: char) -> bool {
        let inside = self.ranges.iter().any(|&(a, b)| a <= c && c <= b);
        if self.negated { !inside && c != '\n' } else { inside }
    }
}

/// A parsed regular expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ast {
    /// The empty string (an empty group or branch).
    Empty,
    Set(CharSet),
    Concat(Vec<Ast>),
    Alt(Vec<Ast>),
    /// `min` to `max` (unbounded when `None`) copies of `inner`.
    Repeat {
        inner: Box<Ast>,
        min: u32,
        max: Option<u32>,
    },
}

/// Why a text is not a regex of the subset, and at which character (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: usize,
    pub what: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a regex of the shared Python/Rust subset: {} at character {}", self.what, self.at + 1)
    }
}

const LITERAL_PUNCTUATION: &str = " !\"#%&',-/:;<=>@_`~";

/// Parses `text` (the whole line is the regex).
pub fn parse(text: &str) -> Result<Ast, SyntaxError> {
    let mut p = Parser { chars: text.chars().collect(), at: 0 };
    let ast = p.alternation()?;
    match p.peek() {
        None => Ok(ast),
        Some(')') => Err(p.error("a ')' without its '('")),
        Some(c) => Err(p.error(&format!("unexpected '{c}'"))),
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn error(&self, what: &str) -> SyntaxError {
        SyntaxError { at: self.at, what: what.to_string() }
    }

    fn alternation(&mut self) -> Result<Ast, SyntaxError> {
        let mut branches = vec![self.concatenation()?];
        while self.peek() == Some('|') {
            self.at += 1;
            branches.push(self.concatenation()?);
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap() } else { Ast::Alt(branches) })
    }

    fn concatenation(&mut self) -> Result<Ast, SyntaxError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(match items.len() {
            0 => Ast::Empty,
            1 => items.pop().unwrap(),
            _ => Ast::Concat(items),
        })
    }

    fn atom(&mut self) -> Result<Ast, SyntaxError> {
        let c = self.peek().expect("called with a character left");
        match c {
            '(' => {
                self.at += 1;
                if self.peek() == Some('?') {
                    return Err(self.error("'(?' groups are not in the subset"));
                }
                let inner = self.alternation()?;
                if self.peek() != Some(')') {
                    return Err(self.error("a '(' is never closed"));
                }
                self.at += 1;
                Ok(inner)
            }
            '[' => self.class(),
            '.' => {
                self.at += 1;
                Ok(Ast::Set(CharSet::any()))
            }
            '*' | '+' | '?' | '{' => Err(self.error(&format!("'{c}' has nothing to repeat"))),
            '\\' => Err(self.error("escapes are not in the subset")),
            '^' | '$' => Err(self.error("anchors are not in the subset (the whole line is matched)")),
            ']' | '}' => Err(self.error(&format!("a stray '{c}'"))),
            c if c.is_ascii_alphanumeric() || LITERAL_PUNCTUATION.contains(c) => {
                self.at += 1;
                Ok(Ast::Set(CharSet::single(c)))
            }
            c => Err(self.error(&format!("the character '{c}' is not in the subset"))),
        }
    }

    fn class_char(&mut self) -> Result<char, SyntaxError> {
        match self.peek() {
            None => Err(self.error("a '[' is never closed")),
            Some(c) if c.is_ascii_alphanumeric() || c == ' ' || c == '_' || c == ',' || c == '.' => {
                self.at += 1;
                Ok(c)
            }
            Some(c) => Err(self.error(&format!("'{c}' inside a class is not in the subset"))),
        }
    }

    fn class(&mut self) -> Result<Ast, SyntaxError> {
        self.at += 1; // '['
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        while self.peek() != Some(']') {
            let a = self.class_char()?;
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&c| c != ']') {
                self.at += 1;
                let b = self.class_char()?;
                if b < a {
                    return Err(self.error(&format!("the range {a}-{b} runs backwards")));
                }
                ranges.push((a, b));
            } else {
                ranges.push((a, a));
            }
        }
        if ranges.is_empty() {
            return Err(self.error("an empty class"));
        }
        self.at += 1; // ']'
        Ok(Ast::Set(CharSet { negated, ranges }))
    }

    fn count(&mut self) -> Result<Option<u32>, SyntaxError> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start {
            return Ok(None);
        }
        let n: u32 = self.chars[start..self.at].iter().collect::<String>().parse().unwrap_or(u32::MAX);
        if n > MAX_COUNT {
            return Err(SyntaxError { at: start, what: format!("the count {n} is above {MAX_COUNT}") });
        }
        Ok(Some(n))
    }

    fn quantified(&mut self, mut atom: Ast) -> Result<Ast, SyntaxError> {
        loop {
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => {
                    self.at += 1;
                    let min = self.count()?.ok_or_else(|| self.error("'{' must start a count like {2} or {2,}"))?;
                    let max = if self.peek() == Some(',') {
                        self.at += 1;
                        self.count()?
                    } else {
                        Some(min)
                    };
                    if self.peek() != Some('}') {
                        return Err(self.error("a count is not closed with '}'"));
                    }
                    if max.is_some_and(|m| m < min) {
                        return Err(self.error("a count {n,m} with m below n"));
                    }
                    (min, max)
                }
                _ => return Ok(atom),
            };
            self.at += 1;
            if self.peek() == Some('?') {
                return Err(self.error("lazy quantifiers are not in the subset"));
            }
            if matches!(atom, Ast::Repeat { .. }) {
                return Err(SyntaxError { at: self.at - 1, what: "a quantifier on a quantifier (group it first)".into() });
            }
            atom = Ast::Repeat { inner: Box::new(atom), min, max };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_regexes_parse() {
        for r in [".*dog.*", "(.*dog){2,}.*", ".*(cat|[0-9]).*", "[^aeiou]*", ".{3}", ".{4,}", "(sun)+", ".*(a.*b|b.*a).*"] {
            parse(r).unwrap_or_else(|e| panic!("{r}: {e}"));
        }
        assert_eq!(parse("a{2,3}").unwrap(), Ast::Repeat { inner: Box::new(Ast::Set(CharSet::single('a'))), min: 2, max: Some(3) });
    }

    #[test]
    fn outside_the_subset_is_refused_with_where() {
        for (r, at, what) in [
            ("(dog", 4, "never closed"),
            ("dog)", 3, "without its"),
            ("*a", 0, "nothing to repeat"),
            ("a**", 2, "quantifier on a quantifier"),
            ("a*?", 2, "lazy"),
            ("\\d", 0, "escapes"),
            ("^a", 0, "anchors"),
            ("[a-", 2, "inside a class"),
            ("[ab", 3, "never closed"),
            ("[z-a]", 4, "backwards"),
            ("a{99}", 2, "above"),
            ("a{3,2}", 5, "below"),
            ("a{x}", 2, "must start a count"),
            ("(?:a)", 1, "'(?'"),
            ("[]", 1, "empty class"),
        ] {
            let e = parse(r).expect_err(r);
            assert_eq!(e.at, at, "{r}: {e}");
            assert!(e.what.contains(what), "{r}: {e}");
        }
    }

    #[test]
    fn dot_and_negated_classes_skip_the_newline() {
        assert!(CharSet::any().contains('x') && !CharSet::any().contains('\n'));
        let not_digit = CharSet { negated: true, ranges: vec![('0', '9')] };
        assert!(not_digit.contains('a') && !not_digit.contains('5') && !not_digit.contains('\n'));
    }
}
