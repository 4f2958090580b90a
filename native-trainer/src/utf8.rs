//! Text read from bytes that may not be UTF-8 (a file saved in Latin-1, a binary file given by
//! mistake): the error names the line and column of the first bad byte, so a user can find it.

/// What is wrong with `bytes`, line `line` (1-based) of its input, if it is not UTF-8.
pub fn line_error(line: usize, bytes: &[u8]) -> Option<String> {
    let e = std::str::from_utf8(bytes).err()?;
    let at = e.valid_up_to();
    Some(format!("line {line} is not UTF-8 text (byte 0x{:02x} at column {})", bytes[at], at + 1))
}

/// The file at `path` as text; the error names the file, and the line and column that are not
/// UTF-8.
pub fn read(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// `bytes` as text, or the error naming the first line that is not UTF-8.
pub fn text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let bad = e.utf8_error().valid_up_to();
        let line_start = bytes[..bad].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + bytes[..bad].iter().filter(|&&b| b == b'\n').count();
        let end = bytes[line_start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| line_start + i);
        line_error(line, &bytes[line_start..end]).unwrap_or_else(|| format!("line {line} is not UTF-8 text"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_names_the_line_and_column() {
        assert_eq!(text(b"a,b\nc,d\n".to_vec()), Ok("a,b\nc,d\n".to_string()));
        assert_eq!(text(b"a,b\nc\xffd\ne\n".to_vec()), Err("line 2 is not UTF-8 text (byte 0xff at column 2)".to_string()));
        assert_eq!(text(b"\xfe".to_vec()), Err("line 1 is not UTF-8 text (byte 0xfe at column 1)".to_string()));
        assert_eq!(line_error(3, "é fine".as_bytes()), None);
    }
}
