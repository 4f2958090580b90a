//! Input generators: random text and bytes, and mutations of valid seeds (bit and byte flips,
//! insertions, deletions, duplications, truncation, splicing with another seed, dictionary
//! tokens, unicode, very long lines).

use super::harness::Rng;

/// Characters that are not in any task alphabet but stress a parser: multi-byte, combining,
/// right-to-left, zero-width, a NUL, and whitespace `str::trim` removes (or does not).
pub const ODD_CHARS: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    ' ',
    '\u{a0}',
    '\u{85}',
    '\u{2028}',
    '\u{3000}',
    '\u{feff}',
    '\u{200b}',
    '\u{200d}',
    '\u{202e}',
    '\u{301}',
    '\u{ff11}',
    '\u{0661}',
    '\u{1d7d7}',
    'é',
    'ß',
    'Ⅸ',
    'Ｑ',
    'ｑ',
    '🙂',
    '\u{10ffff}',
    '\u{fffd}',
    '\u{7f}',
    '\\',
    '"',
    '\'',
    '[',
    ']',
    ',',
    '-',
    '+',
    '.',
    '0',
    '9',
    'Q',
    'q',
    'x',
];

/// A random char: mostly from `alphabet`, sometimes odd or any scalar value.
pub fn char_from(rng: &mut Rng, alphabet: &[char]) -> char {
    match rng.below(10) {
        0..=6 if !alphabet.is_empty() => *rng.pick(alphabet),
        7 | 8 => *rng.pick(ODD_CHARS),
        _ => loop {
            if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                break c;
            }
        },
    }
}

/// A purely random string: random length, chars from `alphabet` or anywhere; sometimes the
/// lossy UTF-8 reading of random bytes.
pub fn random_text(rng: &mut Rng, alphabet: &[char], max_len: usize) -> String {
    let n = rng.len(max_len);
    if rng.one_in(8) {
        return String::from_utf8_lossy(&rng.bytes(n)).into_owned();
    }
    (0..n).map(|_| char_from(rng, alphabet)).collect()
}

/// A mutation of `seed`: 1-8 stacked edits; `others` are splicing partners, `dict` tokens the
/// format knows. About 1 in 2000 results is a very long line (up to ~1 M chars).
pub fn mutate_text(rng: &mut Rng, seed: &str, alphabet: &[char], dict: &[&str], others: &[&str]) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    let most = if rng.one_in(4) { 8 } else { 2 };
    let edits = 1 + rng.below(most);
    for _ in 0..edits {
        let pos = |rng: &mut Rng, s: &Vec<char>| rng.below(s.len() + 1);
        match rng.below(13) {
            0 | 1 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] = char_from(rng, alphabet);
            }
            2 => {
                let i = pos(rng, &s);
                s.insert(i, char_from(rng, alphabet));
            }
            3 if !s.is_empty() => {
                let i = rng.below(s.len());
                let n = 1 + rng.below((s.len() - i).min(16));
                s.drain(i..i + n);
            }
            4 if !s.is_empty() => {
                let i = rng.below(s.len());
                let n = 1 + rng.below((s.len() - i).min(32));
                let part: Vec<char> = s[i..i + n].to_vec();
                let at = pos(rng, &s);
                s.splice(at..at, part);
            }
            5 => {
                let i = pos(rng, &s);
                s.truncate(i);
            }
            6 if !others.is_empty() => {
                let other: Vec<char> = rng.pick(others).chars().collect();
                let (i, j) = (pos(rng, &s), rng.below(other.len() + 1));
                s.truncate(i);
                s.extend_from_slice(&other[j..]);
            }
            7 | 8 if !dict.is_empty() => {
                let token: Vec<char> = rng.pick(dict).chars().collect();
                let i = pos(rng, &s);
                if rng.one_in(2) {
                    s.splice(i..i, token);
                } else {
                    let end = (i + token.len()).min(s.len());
                    s.splice(i..end, token);
                }
            }
            9 if s.len() >= 2 => {
                let (i, j) = (rng.below(s.len()), rng.below(s.len()));
                s.swap(i, j);
            }
            10 => {
                let ws = *rng.pick(&[' ', '\t', '\n', '\r', '\u{a0}', '\u{3000}', '\u{feff}']);
                let n = 1 + rng.below(4);
                if rng.one_in(2) {
                    s.splice(0..0, std::iter::repeat_n(ws, n));
                } else {
                    s.extend(std::iter::repeat_n(ws, n));
                }
            }
            11 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] = if s[i].is_ascii_lowercase() { s[i].to_ascii_uppercase() } else { s[i].to_ascii_lowercase() };
            }
            12 if rng.one_in(250) => {
                // A very long line: the whole thing repeated, or a run of one char.
                let target = 1 + rng.below(1 << 20);
                if s.is_empty() || rng.one_in(2) {
                    let c = char_from(rng, alphabet);
                    s.extend(std::iter::repeat_n(c, target));
                } else {
                    let copy = s.clone();
                    while s.len() < target {
                        s.extend_from_slice(&copy);
                    }
                }
            }
            _ => {}
        }
    }
    s.into_iter().collect()
}

/// Little-endian integers worth writing over a length or offset field.
const INTERESTING: &[u64] = &[
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    15,
    16,
    31,
    32,
    63,
    64,
    127,
    128,
    255,
    256,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    i64::MAX as u64,
    u64::MAX,
];

/// A mutation of binary `seed`: 1-8 stacked edits. With `focus` = Some(n), most edits land in
/// the first `n` bytes (a burnpack's header and CBOR metadata, where the structure is).
pub fn mutate_bytes(rng: &mut Rng, seed: &[u8], focus: Option<usize>, dict: &[&[u8]], others: &[&[u8]]) -> Vec<u8> {
    let mut b = seed.to_vec();
    let most = if rng.one_in(4) { 8 } else { 2 };
    let edits = 1 + rng.below(most);
    for _ in 0..edits {
        let pos = |rng: &mut Rng, len: usize| match focus {
            Some(f) if f > 0 && !rng.one_in(4) => rng.below(f.min(len) + 1),
            _ => rng.below(len + 1),
        };
        let at = |rng: &mut Rng, len: usize| pos(rng, len).min(len.saturating_sub(1));
        match rng.below(12) {
            0 | 1 if !b.is_empty() => {
                let i = at(rng, b.len());
                b[i] ^= 1 << rng.below(8);
            }
            2 if !b.is_empty() => {
                let i = at(rng, b.len());
                let any = rng.next_u64() as u8;
                b[i] = *rng.pick(&[0u8, 1, 0x7f, 0x80, 0xff, any]);
            }
            3 => {
                let i = pos(rng, b.len());
                let n = 1 + rng.below(16);
                let fresh = rng.bytes(n);
                b.splice(i..i, fresh);
            }
            4 if !b.is_empty() => {
                let i = at(rng, b.len());
                let most = if rng.one_in(8) { 4096 } else { 16 };
                let n = 1 + rng.below((b.len() - i).min(most));
                b.drain(i..i + n);
            }
            5 if !b.is_empty() => {
                let i = at(rng, b.len());
                let n = 1 + rng.below((b.len() - i).min(64));
                let part = b[i..i + n].to_vec();
                let j = pos(rng, b.len());
                b.splice(j..j, part);
            }
            6 => {
                let i = if rng.one_in(2) { pos(rng, b.len()) } else { rng.below(b.len() + 1) };
                b.truncate(i);
            }
            7 if !others.is_empty() => {
                let other = *rng.pick(others);
                let (i, j) = (pos(rng, b.len()), rng.below(other.len() + 1));
                b.truncate(i);
                b.extend_from_slice(&other[j..]);
            }
            8 | 9 if !dict.is_empty() => {
                let token = *rng.pick(dict);
                replace_or_insert(rng, &mut b, token, dict, &pos);
            }
            10 if !b.is_empty() => {
                let value = *rng.pick(INTERESTING) ^ if rng.one_in(4) { rng.below(4) as u64 } else { 0 };
                let width = *rng.pick(&[1usize, 2, 4, 8]);
                let i = at(rng, b.len());
                let bytes = if rng.one_in(2) { value.to_le_bytes() } else { value.to_be_bytes() };
                let src = if rng.one_in(2) { &bytes[..width] } else { &bytes[8 - width..] };
                for (k, &x) in src.iter().enumerate() {
                    if let Some(slot) = b.get_mut(i + k) {
                        *slot = x;
                    }
                }
            }
            11 if !b.is_empty() => {
                let i = at(rng, b.len());
                let delta = rng.below(33) as u8;
                b[i] = if rng.one_in(2) { b[i].wrapping_add(delta) } else { b[i].wrapping_sub(delta) };
            }
            _ => {}
        }
    }
    b
}

/// Replaces an occurrence of some dictionary token by `token` (a dtype for a dtype, say), or
/// writes `token` at a random place.
fn replace_or_insert(rng: &mut Rng, b: &mut Vec<u8>, token: &[u8], dict: &[&[u8]], pos: &dyn Fn(&mut Rng, usize) -> usize) {
    let victim = *rng.pick(dict);
    if rng.below(3) > 0 && !victim.is_empty() {
        let hits: Vec<usize> = b.windows(victim.len()).enumerate().filter(|(_, w)| *w == victim).map(|(i, _)| i).collect();
        if !hits.is_empty() {
            let i = *rng.pick(&hits);
            b.splice(i..i + victim.len(), token.iter().copied());
            return;
        }
    }
    let i = pos(rng, b.len());
    if rng.one_in(2) {
        b.splice(i..i, token.iter().copied());
    } else {
        let end = (i + token.len()).min(b.len());
        b.splice(i..end, token.iter().copied());
    }
}

/// Random token ids: mostly small (the vocabulary and just past it), sometimes anything.
pub fn random_token(rng: &mut Rng, vocab: u32) -> u32 {
    match rng.below(8) {
        0 => *rng.pick(&[u32::MAX, u32::MAX - 1, 1 << 31, 255, 256, 65535]),
        1 => rng.next_u64() as u32,
        _ => rng.below(vocab as usize + 3) as u32,
    }
}

/// A mutation of a token sequence: changed, inserted, deleted, truncated or duplicated tokens.
pub fn mutate_tokens(rng: &mut Rng, seed: &[u32], vocab: u32) -> Vec<u32> {
    let mut t = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(6) {
            0 | 1 if !t.is_empty() => {
                let i = rng.below(t.len());
                t[i] = random_token(rng, vocab);
            }
            2 => {
                let i = rng.below(t.len() + 1);
                t.insert(i, random_token(rng, vocab));
            }
            3 if !t.is_empty() => {
                let i = rng.below(t.len());
                t.remove(i);
            }
            4 => t.truncate(rng.below(t.len() + 1)),
            5 if !t.is_empty() => {
                let n = rng.below(t.len()) + 1;
                let part = t[..n].to_vec();
                t.extend(part);
            }
            _ => {}
        }
    }
    t
}
