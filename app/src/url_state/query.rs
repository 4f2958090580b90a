//! Query strings as text. The page reads its query with the browser's `URLSearchParams`; these
//! native equivalents (the WHATWG `application/x-www-form-urlencoded` rules) let the tests and the
//! fuzzer feed whole query strings to the parsers, and [`encode`] writes the tree line.

/// Percent-encodes everything but ASCII letters and digits (the tree line has brackets, commas,
/// spaces).
pub fn encode(text: &str) -> String {
    text.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// Decodes one name or value: `+` is a space, `%XX` a byte, any other `%` stays; bytes that are
/// not UTF-8 become U+FFFD.
pub fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |j: usize| bytes.get(j).and_then(|&b| (b as char).to_digit(16));
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                if let (Some(hi), Some(lo)) = (hex(i + 1), hex(i + 2)) {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                    continue;
                }
                out.push(b'%');
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The decoded `(name, value)` pairs of a query string, in order, as `URLSearchParams` gives
/// them: a leading `?` is dropped, empty pieces are skipped, a piece without `=` has an empty value.
pub fn decode(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
            (decode_component(name), decode_component(value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_url_search_params() {
        let pairs = |q: &str| decode(q).into_iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
        assert_eq!(pairs("?a=1&&b&c=x=y"), ["a=1", "b=", "c=x=y"]);
        assert_eq!(pairs("t=A%2C+B%5B%zz%4"), ["t=A, B[%zz%4"]);
        assert_eq!(pairs("%C3%A9=%FF"), ["é=\u{FFFD}"]);
        assert!(decode("").is_empty() && decode("?").is_empty());
    }

    #[test]
    fn encode_then_decode_is_the_identity() {
        for text in ["NL, NO[ROOT]N[TARGET]K[ROUTE]", "a+b %20 é&=?", ""] {
            assert_eq!(decode_component(&encode(text)), text);
        }
        assert_eq!(encode("AB, C[x]"), "AB%2C%20C%5Bx%5D");
    }
}
