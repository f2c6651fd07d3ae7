//! The one pass over the lines: the item line, then the options.

use crate::names::Names;
use crate::text::{self, Span};
use crate::{Error, ErrorKind, Stop};

/// Lines read between two looks at the stop flag.
const LINES_PER_LOOK: u32 = 4096;

/// A bound of DLX3 as written: a number of any size, in decimal digits
/// without leading zeros ("0" for zero), and its value when it fits 64 bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub digits: String,
    pub value: Option<u64>,
}

impl Bound {
    fn parse(digits: &[u8]) -> Bound {
        let first = digits
            .iter()
            .position(|&d| d != b'0')
            .unwrap_or(digits.len());
        let digits = if first == digits.len() {
            "0".to_string()
        } else {
            String::from_utf8_lossy(&digits[first..]).into_owned()
        };
        let value = digits.parse::<u64>().ok();
        Bound { digits, value }
    }

    fn one() -> Bound {
        Bound {
            digits: "1".into(),
            value: Some(1),
        }
    }

    fn is_zero(&self) -> bool {
        self.digits == "0"
    }

    /// Compares two numbers of any size: by length, then digit by digit.
    fn exceeds(&self, other: &Bound) -> bool {
        (self.digits.len(), self.digits.as_bytes()) > (other.digits.len(), other.digits.as_bytes())
    }
}

/// An option line without a primary item, skipped as Knuth's programs skip it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub line: u64,
    /// The line without blanks at its ends.
    pub span: Span,
}

/// What a `.dlx` file holds, as arrays. Items are numbered primary first;
/// colors from 1 (0 = none) in order of first use; option `o` is
/// `option_item[option_start[o]..option_start[o + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct DlxFile {
    /// The name of each item, as a span of the input.
    pub items: Vec<Span>,
    pub n_primary: u32,
    pub lo: Vec<Bound>,
    pub hi: Vec<Bound>,
    /// The name of color `c` is `colors[c - 1]`.
    pub colors: Vec<Span>,
    pub option_start: Vec<u32>,
    pub option_item: Vec<u32>,
    pub option_color: Vec<u32>,
    /// Each option's line without blanks at its ends: its label.
    pub labels: Vec<Span>,
    /// Each option's cost (DLX5's `|n` entries, added up); empty when no
    /// option line has one.
    pub option_cost: Vec<u64>,
    /// The first few options skipped (no primary item), and how many in all.
    pub skipped: Vec<Skipped>,
    pub n_skipped: u64,
}

/// How many skipped options are kept to be named.
pub const SKIPPED_KEPT: usize = 5;

fn error(line: u64, text: &[u8], kind: ErrorKind) -> Error {
    Error {
        line,
        text: String::from_utf8_lossy(text).into_owned(),
        kind,
    }
}

fn string(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Reads the bytes of a `.dlx` file (see the crate's documentation).
/// Spans are offsets into `data`. `stop` is looked at every few thousand
/// lines: once raised, the read ends with [`ErrorKind::Stopped`].
pub fn read(data: &[u8], stop: &Stop) -> Result<DlxFile, Error> {
    let start = text::check(data, stop)?;
    let mut lines = text::lines(&data[start..])
        .enumerate()
        .map(|(k, (at, line))| (k as u64 + 1, start + at, line))
        .filter(|(_, _, line)| {
            let (_, s) = text::strip(line);
            !s.is_empty() && s[0] != b'|'
        });
    let Some((lineno, at, line)) = lines.next() else {
        return Err(error(0, b"", ErrorKind::Empty));
    };
    let mut file = DlxFile::default();
    let table = item_line(data, lineno, at, line, &mut file)?;
    let n_items = table.len();
    let n_primary = file.n_primary;
    file.items = table.spans.clone();
    let mut colors = Names::new();
    // seen[i] == option line number + 1 marks item i as used on that line.
    let mut seen = vec![0u64; n_items];
    let mut entries: Vec<(u32, Span, Option<Span>)> = Vec::new();
    // Room for the usual file at once (an entry every 4 bytes, an option
    // every 16), so that a big read does not copy its arrays as they grow
    // (a tenth of the read at a million options). Only asked, with
    // `try_reserve`: under an address-space limit a refusal is no error,
    // and pages never written cost no memory.
    let rest = data.len() - at;
    let _ = file.option_item.try_reserve(rest / 4);
    let _ = file.option_color.try_reserve(rest / 4);
    let _ = file.option_start.try_reserve(rest / 16);
    let _ = file.labels.try_reserve(rest / 16);
    file.option_start.push(0);
    let mut count = 0u32;
    for (lineno, at, line) in lines {
        count += 1;
        if count.is_multiple_of(LINES_PER_LOOK) && text::stopped(stop) {
            return Err(text::stop_error());
        }
        entries.clear();
        let mut cost = 0u64;
        // First every entry is read (as Knuth's reader does: a name it does
        // not know is the first thing it complains of) ...
        for (w, word) in text::words(line) {
            let w = at + w;
            if word[0] == b'|' {
                // DLX5's cost entry (never first: a line starting with `|`
                // is a comment).
                let digits = &word[1..];
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return Err(error(lineno, line, ErrorKind::BadCost(string(word))));
                }
                let value = std::str::from_utf8(digits)
                    .ok()
                    .and_then(|d| d.parse::<u64>().ok())
                    .and_then(|d| cost.checked_add(d));
                match value {
                    Some(v) => cost = v,
                    None => return Err(error(lineno, line, ErrorKind::CostTooLarge(string(word)))),
                }
                continue;
            }
            let colon = word.iter().position(|&b| b == b':');
            let name = &word[..colon.unwrap_or(word.len())];
            if name.is_empty() {
                return Err(error(lineno, line, ErrorKind::EmptyNameIn(string(word))));
            }
            let color = colon.map(|c| (w + c + 1, w + word.len()));
            if color.is_some_and(|(a, b)| a == b) {
                return Err(error(lineno, line, ErrorKind::EmptyColor(string(name))));
            }
            match table.get(data, name) {
                Some(item) => entries.push((item, (w, w + name.len()), color)),
                None => return Err(error(lineno, line, ErrorKind::UnknownItem(string(name)))),
            }
        }
        // ... then the option as a whole: repeats, colors, a primary item.
        let mut has_primary = false;
        for &(item, name, color) in &entries {
            let name = &data[name.0..name.1];
            if seen[item as usize] == lineno + 1 {
                return Err(error(lineno, line, ErrorKind::AppearsTwice(string(name))));
            }
            seen[item as usize] = lineno + 1;
            if item < n_primary {
                if color.is_some() {
                    return Err(error(lineno, line, ErrorKind::ColorOnPrimary(string(name))));
                }
                has_primary = true;
            } else if let Some(span) = color {
                let _ = colors.insert(data, span);
            }
        }
        let (s, stripped) = text::strip(line);
        let label = (at + s, at + s + stripped.len());
        if !has_primary {
            file.n_skipped += 1;
            if file.skipped.len() < SKIPPED_KEPT {
                file.skipped.push(Skipped {
                    line: lineno,
                    span: label,
                });
            }
            continue;
        }
        for &(item, _, color) in &entries {
            file.option_item.push(item);
            file.option_color.push(match color {
                Some(span) => colors.get(data, &data[span.0..span.1]).map_or(0, |c| c + 1),
                None => 0,
            });
        }
        if file.option_item.len() > u32::MAX as usize / 2 {
            return Err(error(lineno, line, ErrorKind::TooLarge));
        }
        file.option_start.push(file.option_item.len() as u32);
        if cost > 0 && file.option_cost.len() < file.labels.len() {
            file.option_cost.resize(file.labels.len(), 0);
        }
        if cost > 0 || !file.option_cost.is_empty() {
            file.option_cost.push(cost);
        }
        file.labels.push(label);
    }
    file.colors = colors.spans;
    Ok(file)
}

/// The names of the item line, with DLX3's bounds; as in Knuth's reader, a
/// `|` that starts a word separates the primary items from the secondary
/// ones, and may be glued to the next name.
fn item_line(
    data: &[u8],
    lineno: u64,
    at: usize,
    line: &[u8],
    file: &mut DlxFile,
) -> Result<Names, Error> {
    let fail = |kind| Err(error(lineno, line, kind));
    let mut secondary = false;
    let mut items = Names::new();
    let mut secondaries = Names::new();
    for (w, word) in text::words(line) {
        let mut span = (at + w, at + w + word.len());
        if word[0] == b'|' {
            if secondary {
                return fail(ErrorKind::SecondBar);
            }
            secondary = true;
            span.0 += 1;
            if span.0 == span.1 {
                continue;
            }
        }
        let name = &data[span.0..span.1];
        if secondary {
            if name.iter().any(|&b| b == b':' || b == b'|') {
                return fail(ErrorKind::IllegalSecondary(string(name)));
            }
            if items.get(data, name).is_some() || secondaries.insert(data, span).is_err() {
                return fail(ErrorKind::DeclaredTwice(string(name)));
            }
            continue;
        }
        let (mut lo, mut hi) = (Bound::one(), Bound::one());
        let mut name_span = span;
        if let Some((l, h, rest)) = bounds(name) {
            hi = Bound::parse(h);
            lo = match l {
                Some(l) => Bound::parse(l),
                None => hi.clone(),
            };
            name_span = (span.1 - rest.len(), span.1);
            let rest = string(rest);
            if hi.is_zero() {
                return fail(ErrorKind::UpperBoundZero(rest));
            }
            if lo.exceeds(&hi) {
                return fail(ErrorKind::LowerExceedsUpper {
                    name: rest,
                    lo: lo.digits,
                    hi: hi.digits,
                });
            }
        }
        let name = &data[name_span.0..name_span.1];
        if name.is_empty() {
            return fail(ErrorKind::EmptyItemName);
        }
        if name.iter().any(|&b| b == b':' || b == b'|') {
            return fail(ErrorKind::IllegalPrimary(string(name)));
        }
        if items.insert(data, name_span).is_err() {
            return fail(ErrorKind::DeclaredTwice(string(name)));
        }
        file.lo.push(lo);
        file.hi.push(hi);
    }
    file.n_primary = items.len() as u32;
    if file.n_primary == 0 {
        return fail(ErrorKind::NoPrimary);
    }
    for &span in &secondaries.spans {
        // (Checked above: no name is declared twice.)
        let _ = items.insert(data, span);
    }
    Ok(items)
}

/// The three parts of DLX3's bound prefix: (u if given, v, name).
type BoundParts<'a> = (Option<&'a [u8]>, &'a [u8], &'a [u8]);

/// DLX3's bound prefix `u:v|name` or `v|name`, digits possibly empty (an
/// empty number is 0, as in DLX3).
fn bounds(word: &[u8]) -> Option<BoundParts<'_>> {
    let bar = word.iter().position(|&b| b == b'|')?;
    let (head, rest) = (&word[..bar], &word[bar + 1..]);
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    match head.iter().position(|&b| b == b':') {
        Some(c) if digits(&head[..c]) && digits(&head[c + 1..]) => {
            Some((Some(&head[..c]), &head[c + 1..], rest))
        }
        None if digits(head) => Some((None, head, rest)),
        _ => None,
    }
}

/// What reading holds, per byte of the file (the text and the labels' copy
/// of it), per entry (its item and color, then the compiled copy) and per
/// line (its label's span): a random file of 28 MB, 10^6 lines and 5 * 10^6
/// entries peaks at 192 MB, 216 MB by this count.
const HELD_PER_BYTE: u64 = 2;
const HELD_PER_ENTRY: u64 = 24;
const HELD_PER_LINE: u64 = 16;

/// The memory [`read`] and its caller's copy hold for a file of `bytes`
/// bytes, `lines` lines and `words` words ([`crate::shape`]), known before
/// reading. Saturates.
///
/// ```
/// assert_eq!(dlx::held_bytes(100, 2, 10), 200 + 24 * 12 + 32);
/// ```
pub fn held_bytes(bytes: u64, lines: u64, words: u64) -> u64 {
    HELD_PER_BYTE
        .saturating_mul(bytes)
        .saturating_add(HELD_PER_ENTRY.saturating_mul(words.saturating_add(lines)))
        .saturating_add(HELD_PER_LINE.saturating_mul(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (u64, ErrorKind) {
        let e = read(text.as_bytes(), &Stop::default()).unwrap_err();
        (e.line, e.kind)
    }

    #[test]
    fn reads_bounds_colors_and_labels() {
        let text = "| DLX3\nA B 2:3|C | X Y\nA B X:0 Y:0\n  A C X:1 Y:1 \nC X:0\nB X:1\nC Y:1\nX\n";
        let f = read(text.as_bytes(), &Stop::default()).unwrap();
        assert_eq!(f.n_primary, 3);
        assert_eq!((f.lo[2].value, f.hi[2].value), (Some(2), Some(3)));
        assert_eq!(f.option_start, vec![0, 4, 8, 10, 12, 14]);
        assert_eq!(&f.option_color[..8], &[0, 0, 1, 1, 0, 0, 2, 2]);
        assert_eq!(&text[f.labels[1].0..f.labels[1].1], "A C X:1 Y:1");
        assert_eq!((f.n_skipped, f.skipped[0].line), (1, 8));
    }

    #[test]
    fn names_the_line_of_each_error() {
        assert_eq!(kind("A B\nA C\n"), (2, ErrorKind::UnknownItem("C".into())));
        assert_eq!(
            kind("A B\nA B A\n"),
            (2, ErrorKind::AppearsTwice("A".into()))
        );
        assert_eq!(
            kind("A B\nA A Q\n"),
            (2, ErrorKind::UnknownItem("Q".into()))
        );
        assert_eq!(
            kind("A | x\nA:1 x\n"),
            (2, ErrorKind::ColorOnPrimary("A".into()))
        );
        assert_eq!(
            kind("A 3:2|B\n").1,
            ErrorKind::LowerExceedsUpper {
                name: "B".into(),
                lo: "3".into(),
                hi: "2".into()
            }
        );
        assert_eq!(kind("2:|A\n").1, ErrorKind::UpperBoundZero("A".into()));
        assert_eq!(kind("A | x | y\n").1, ErrorKind::SecondBar);
        assert_eq!(kind("A x|B\n").1, ErrorKind::IllegalPrimary("x|B".into()));
        assert_eq!(kind("A | A\n").1, ErrorKind::DeclaredTwice("A".into()));
        assert_eq!(kind("").1, ErrorKind::Empty);
        assert_eq!(kind("A | x\nA x:\n").1, ErrorKind::EmptyColor("x".into()));
        assert_eq!(kind("A | x\nA :1\n").1, ErrorKind::EmptyNameIn(":1".into()));
    }

    #[test]
    fn reads_costs_as_dlx5_does() {
        let text = "A B | x\nA |3 B |4\nA x:1\nB |0 |12 x:1\n";
        let f = read(text.as_bytes(), &Stop::default()).unwrap();
        assert_eq!(f.option_cost, vec![7, 0, 12]);
        assert_eq!(f.option_start, vec![0, 2, 4, 6]);
        assert!(
            read(b"A\nA\n", &Stop::default())
                .unwrap()
                .option_cost
                .is_empty()
        );
        assert_eq!(kind("A\nA |\n"), (2, ErrorKind::BadCost("|".into())));
        assert_eq!(kind("A\nA |1x\n"), (2, ErrorKind::BadCost("|1x".into())));
        assert_eq!(kind("A\nA |-1\n"), (2, ErrorKind::BadCost("|-1".into())));
        let big = format!("A\nA |{} |1\n", u64::MAX);
        assert_eq!(kind(&big), (2, ErrorKind::CostTooLarge("|1".into())));
        let past = format!("A\nA |{}0\n", u64::MAX);
        assert!(matches!(kind(&past).1, ErrorKind::CostTooLarge(_)));
    }

    #[test]
    fn bounds_of_any_size_are_compared_exactly() {
        let big = "1".repeat(30);
        let text = format!("{big}1:{big}0|A\nA\n");
        assert!(matches!(kind(&text).1, ErrorKind::LowerExceedsUpper { .. }));
        let f = read(format!(":{big}|A\nA\n").as_bytes(), &Stop::default()).unwrap();
        assert_eq!(
            (f.lo[0].value, f.hi[0].value, f.hi[0].digits.as_str()),
            (Some(0), None, big.as_str())
        );
    }
}
