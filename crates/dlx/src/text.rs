//! Bytes to lines and words, as Knuth's programs read them (and as every
//! text reader of `covering` does): a line ends at `\n` (a `\r` before it is
//! dropped); inside a line space, `\t`, `\v`, `\f` and `\r` are blanks;
//! any other control character (C0, DEL, C1, U+2028, U+2029) is an error;
//! the bytes must be UTF-8, and a byte-order mark at the start is skipped.

use std::sync::atomic::Ordering;

use crate::{Error, ErrorKind, Stop};

/// A part of the input, `(start, end)` in bytes.
pub type Span = (usize, usize);

/// The blanks inside a line (C's `isspace`, less the newline).
pub const BLANKS: &[u8] = b" \t\x0b\x0c\r";

/// Bytes scanned between two looks at the stop flag.
const CHUNK: usize = 1 << 20;

#[inline]
pub fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c | b'\r')
}

/// Checks the whole text before anything is built, so that an unreadable
/// byte is reported wherever it is: first that it is UTF-8, then that it has
/// no control character. Returns where the text starts (after a BOM).
pub fn check(data: &[u8], stop: &Stop) -> Result<usize, Error> {
    let mut from = 0;
    while from < data.len() {
        // A chunk ends at the start of a character (unless it has none).
        let mut to = (from + CHUNK).min(data.len());
        while to < data.len() && to > from && data[to] & 0xC0 == 0x80 {
            to -= 1;
        }
        if to == from {
            to = (from + CHUNK).min(data.len());
        }
        if let Err(e) = std::str::from_utf8(&data[from..to]) {
            let at = from + e.valid_up_to();
            let line_start = data[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
            return Err(Error {
                line: line_of(data, at),
                text: String::new(),
                kind: ErrorKind::NotUtf8 {
                    column: (at - line_start + 1) as u64,
                    byte: data[at],
                },
            });
        }
        if stopped(stop) {
            return Err(stop_error());
        }
        from = to;
    }
    let start = if data.starts_with("\u{feff}".as_bytes()) {
        3
    } else {
        0
    };
    let text = &data[start..];
    let mut from = 0;
    while from < text.len() {
        let to = (from + CHUNK).min(text.len());
        if let Some(at) = first_control(text, from, to) {
            return Err(control_error(text, at));
        }
        if stopped(stop) {
            return Err(stop_error());
        }
        from = to;
    }
    Ok(start)
}

/// A byte below 0x20 that may stand in a text: the blanks and the newline.
#[inline]
fn is_line_byte(b: u8) -> bool {
    b == b'\n' || is_blank(b)
}

/// The first control character starting in `text[from..to]`, if any (a
/// character may run past `to`: the text is UTF-8, so it is whole).
fn first_control(text: &[u8], from: usize, to: usize) -> Option<usize> {
    (from..to).find(|&k| {
        let b = text[k];
        match b {
            0x00..=0x1f => !is_line_byte(b),
            0x7f => true,
            // U+0080..U+009F
            0xC2 => (0x80..=0x9F).contains(&text[k + 1]),
            // U+2028, U+2029
            0xE2 => text[k + 1] == 0x80 && matches!(text[k + 2], 0xA8 | 0xA9),
            _ => false,
        }
    })
}

fn control_error(text: &[u8], at: usize) -> Error {
    let line_start = text[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |k| k + 1);
    let column = text[line_start..at]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count() as u64
        + 1;
    let code = std::str::from_utf8(&text[at..(at + 4).min(text.len())])
        .or_else(|e| std::str::from_utf8(&text[at..at + e.valid_up_to()]))
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(0, |c| c as u32);
    Error {
        line: line_of(text, at),
        text: String::new(),
        kind: ErrorKind::Control { column, code },
    }
}

fn line_of(data: &[u8], at: usize) -> u64 {
    data[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

/// How many lines, and blanks between words (spaces and tabs), `data`
/// has: what a read will hold is estimated from them before it starts. One
/// pass, a megabyte at a time (the counting loop vectorized; the stop flag
/// polled between); `None` once `stop` is raised.
pub fn shape(data: &[u8], stop: &Stop) -> Option<(u64, u64)> {
    let (mut lines, mut blanks) = (1u64, 0u64);
    for chunk in data.chunks(CHUNK) {
        if stopped(stop) {
            return None;
        }
        let (mut l, mut b) = (0u32, 0u32);
        for &c in chunk {
            l += (c == b'\n') as u32;
            b += ((c == b' ') | (c == b'\t')) as u32;
        }
        lines += l as u64;
        blanks += b as u64;
    }
    Some((lines, blanks))
}

pub fn stopped(stop: &Stop) -> bool {
    stop.flag.load(Ordering::Relaxed)
}

pub fn stop_error() -> Error {
    Error {
        line: 0,
        text: String::new(),
        kind: ErrorKind::Stopped,
    }
}

/// The lines of a checked text: (offset of the line in `text`, the line
/// without its `\n` or `\r\n`). A last line without `\n` counts.
pub fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let start = at;
        let end = match memchr(b'\n', &text[at..]) {
            Some(k) => {
                at += k + 1;
                start + k
            }
            None => {
                at = text.len();
                text.len()
            }
        };
        let mut line = &text[start..end];
        if let [rest @ .., b'\r'] = line {
            line = rest;
        }
        Some((start, line))
    })
}

#[inline]
fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// The words of a line, split at the blanks only, each with its offset in the line.
pub fn words(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < line.len() && is_blank(line[at]) {
            at += 1;
        }
        if at >= line.len() {
            return None;
        }
        let start = at;
        while at < line.len() && !is_blank(line[at]) {
            at += 1;
        }
        Some((start, &line[start..at]))
    })
}

/// The line without blanks at either end: (offset of its start, the rest).
pub fn strip(line: &[u8]) -> (usize, &[u8]) {
    let a = line
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(line.len());
    let b = line
        .iter()
        .rposition(|&b| !is_blank(b))
        .map_or(a, |k| k + 1);
    (a, &line[a..b])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(data: &[u8]) -> Option<(u64, ErrorKind)> {
        check(data, &Stop::default())
            .err()
            .map(|e| (e.line, e.kind))
    }

    #[test]
    fn finds_bad_bytes_and_control_characters_by_line_and_column() {
        assert_eq!(
            kind(b"A B\nA \xff\n"),
            Some((
                2,
                ErrorKind::NotUtf8 {
                    column: 3,
                    byte: 0xff
                }
            ))
        );
        assert_eq!(
            kind("ok\nA\u{1c}B\n".as_bytes()),
            Some((
                2,
                ErrorKind::Control {
                    column: 2,
                    code: 0x1c
                }
            ))
        );
        assert_eq!(
            kind("漢字\u{85}\n".as_bytes()),
            Some((
                1,
                ErrorKind::Control {
                    column: 3,
                    code: 0x85
                }
            ))
        );
        assert_eq!(
            kind("a\nb\u{2029}".as_bytes()),
            Some((
                2,
                ErrorKind::Control {
                    column: 2,
                    code: 0x2029
                }
            ))
        );
        assert_eq!(kind("A\x0bB\x0c\r\n\t x".as_bytes()), None);
        assert_eq!(check("\u{feff}A".as_bytes(), &Stop::default()), Ok(3));
    }

    #[test]
    fn lines_and_words_as_knuth_reads_them() {
        let got: Vec<&[u8]> = lines(b"a\r\n\nb\r\r\nc").map(|(_, l)| l).collect();
        assert_eq!(got, vec![&b"a"[..], b"", b"b\r", b"c"]);
        let w: Vec<&[u8]> = words(b" a\tb\x0cc ").map(|(_, w)| w).collect();
        assert_eq!(w, vec![&b"a"[..], b"b", b"c"]);
        assert_eq!(strip(b" \ta b\r"), (2, &b"a b"[..]));
    }

    #[test]
    fn the_shape_counts_lines_and_blanks_across_chunks() {
        let stop = Stop::default();
        assert_eq!(shape(b"", &stop), Some((1, 0)));
        assert_eq!(shape(b"A B\tC\nA\n", &stop), Some((3, 2)));
        // Past a chunk: the counts of each add up.
        let big = b"ab c\n".repeat(CHUNK / 5 * 3 + 7);
        let n = (CHUNK / 5 * 3 + 7) as u64;
        assert_eq!(shape(&big, &stop), Some((n + 1, n)));
        stop.flag.store(true, Ordering::Relaxed);
        assert_eq!(shape(&big, &stop), None);
    }
}
