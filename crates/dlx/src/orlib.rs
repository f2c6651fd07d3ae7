//! OR-Library's set partitioning files (Beasley's; Hoffman and Padberg's
//! airline crew instances): whitespace-separated decimal numbers, the first
//! two `rows columns`, then for each column `cost k row1 ... rowk`, rows
//! numbered from 1. Numbers may wrap over lines as they like; the checks of
//! every text reader come first ([`crate::text::check`]: UTF-8, no control
//! character).
//!
//! OR-Library's set covering files have another layout (the costs of all
//! columns first, then for each row the columns that cover it): a file that
//! reads that way, and not this one, is refused with the line where it
//! departs from this layout.
//!
//! ```
//! let f = dlx::orlib::read(b"3 2\n5 2 1 2\n3 1\n3\n", &Default::default()).unwrap();
//! assert_eq!((f.rows, f.costs.clone()), (3, vec![5, 3]));
//! assert_eq!((f.start.clone(), f.item.clone()), (vec![0, 2, 3], vec![0, 1, 2]));
//! ```

use crate::Stop;
use crate::text::{check, lines, stop_error, stopped, words};

/// A set partitioning problem: `rows` items, and the columns as options
/// (CSR: column `c` covers the rows `item[start[c]..start[c + 1]]`, numbered
/// from 0), each with its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrLib {
    pub rows: u32,
    pub costs: Vec<u64>,
    pub start: Vec<u32>,
    pub item: Vec<u32>,
}

/// Why a file is not one: the kind, at `line` (1-based; 0 at the end of
/// the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrLibError {
    pub line: u64,
    pub kind: OrLibErrorKind,
}

/// The errors of the layout, each with what its message names (words raw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrLibErrorKind {
    /// The text itself (not UTF-8, a control character), as the `.dlx` reader says it.
    Text(crate::Error),
    /// No numbers at all.
    Empty,
    /// A word that is not a decimal number of the kind asked ("rows",
    /// "columns", "cost", "count", "row").
    NotANumber { what: &'static str, word: String },
    /// A count or a row too large for the engine (past 2^32 - 1).
    TooLarge { what: &'static str, word: String },
    /// The file ends inside column `column` (1-based), which said `expected` rows.
    Truncated { column: u64, expected: u64 },
    /// The file ends before its `columns` columns: only `found`.
    TooFewColumns { columns: u64, found: u64 },
    /// Numbers after the last column.
    Trailing(String),
    /// Column `column` names row `row`, outside 1..=rows.
    RowOutOfRange { column: u64, row: u64, rows: u64 },
    /// Column `column` names row `row` twice.
    RowTwice { column: u64, row: u64 },
    /// Column `column` covers no row.
    EmptyColumn { column: u64 },
    /// The file reads as OR-Library's set covering layout, and departs
    /// from this one at the error's line.
    CoveringLayout,
}

/// The numbers of a text, each with its line.
struct Numbers<'a> {
    words: Vec<(u64, &'a [u8])>,
    at: usize,
}

impl<'a> Numbers<'a> {
    fn next(&mut self) -> Option<(u64, &'a [u8])> {
        let w = self.words.get(self.at).copied();
        self.at += 1;
        w
    }

    /// The line of the next word (or of the last, at the end).
    fn line(&self) -> u64 {
        self.words
            .get(self.at)
            .or(self.words.last())
            .map_or(0, |w| w.0)
    }
}

/// A decimal number (digits only, no sign) up to `most`.
fn number(word: &[u8], what: &'static str, most: u64) -> Result<u64, OrLibErrorKind> {
    let text = || String::from_utf8_lossy(word).into_owned();
    if word.is_empty() || !word.iter().all(u8::is_ascii_digit) {
        return Err(OrLibErrorKind::NotANumber { what, word: text() });
    }
    let mut v: u64 = 0;
    for &d in word {
        v = match v
            .checked_mul(10)
            .and_then(|v| v.checked_add((d - b'0') as u64))
        {
            Some(v) if v <= most => v,
            _ => return Err(OrLibErrorKind::TooLarge { what, word: text() }),
        };
    }
    Ok(v)
}

/// Reads the bytes of a set partitioning file (see the module's text).
pub fn read(data: &[u8], stop: &Stop) -> Result<OrLib, OrLibError> {
    let from = check(data, stop).map_err(|e| OrLibError {
        line: e.line,
        kind: OrLibErrorKind::Text(e),
    })?;
    let mut all = Vec::new();
    for (k, (_, line)) in lines(&data[from..]).enumerate() {
        if k % 4096 == 0 && stopped(stop) {
            return Err(OrLibError {
                line: 0,
                kind: OrLibErrorKind::Text(stop_error()),
            });
        }
        all.extend(words(line).map(|(_, w)| (k as u64 + 1, w)));
    }
    let mut n = Numbers { words: all, at: 0 };
    match partitioning(&mut n, stop) {
        Ok(f) => Ok(f),
        Err(mut e) => {
            // The other layout, read from the start: named if it fits.
            if !matches!(e.kind, OrLibErrorKind::Text(_) | OrLibErrorKind::Empty)
                && covering(&mut Numbers {
                    words: std::mem::take(&mut n.words),
                    at: 0,
                })
            {
                e.kind = OrLibErrorKind::CoveringLayout;
            }
            Err(e)
        }
    }
}

/// What the problem of a file holds with names, per row (its name) and per
/// entry (its item in the arrays and their copies).
const HELD_PER_ROW: u64 = 120;
const HELD_PER_ENTRY: u64 = 12;

/// The memory the problem of a file of `rows` rows and `entries` entries
/// holds once built with names, known before it is built. Saturates.
///
/// ```
/// assert_eq!(dlx::orlib::held_bytes(3, 3), 3 * 120 + 3 * 12);
/// ```
pub fn held_bytes(rows: u64, entries: u64) -> u64 {
    HELD_PER_ROW
        .saturating_mul(rows)
        .saturating_add(HELD_PER_ENTRY.saturating_mul(entries))
}

const MOST: u64 = u32::MAX as u64 - 1;

fn partitioning(n: &mut Numbers<'_>, stop: &Stop) -> Result<OrLib, OrLibError> {
    let fail = |line: u64, kind: OrLibErrorKind| OrLibError { line, kind };
    let (line, w) = n.next().ok_or(fail(0, OrLibErrorKind::Empty))?;
    let rows = number(w, "rows", MOST).map_err(|k| fail(line, k))?;
    let (line, w) = n.next().ok_or(fail(
        line,
        OrLibErrorKind::TooFewColumns {
            columns: 0,
            found: 0,
        },
    ))?;
    let columns = number(w, "columns", MOST).map_err(|k| fail(line, k))?;
    let mut f = OrLib {
        rows: rows as u32,
        costs: Vec::new(),
        start: vec![0],
        item: Vec::new(),
    };
    for c in 1..=columns {
        if c % 4096 == 0 && stopped(stop) {
            return Err(fail(0, OrLibErrorKind::Text(stop_error())));
        }
        let Some((line, w)) = n.next() else {
            return Err(fail(
                n.line(),
                OrLibErrorKind::TooFewColumns {
                    columns,
                    found: c - 1,
                },
            ));
        };
        f.costs
            .push(number(w, "cost", u64::MAX).map_err(|k| fail(line, k))?);
        let Some((line, w)) = n.next() else {
            return Err(fail(
                line,
                OrLibErrorKind::Truncated {
                    column: c,
                    expected: 0,
                },
            ));
        };
        let k = number(w, "count", MOST).map_err(|k| fail(line, k))?;
        if k == 0 {
            return Err(fail(line, OrLibErrorKind::EmptyColumn { column: c }));
        }
        for _ in 0..k {
            let Some((line, w)) = n.next() else {
                return Err(fail(
                    n.line(),
                    OrLibErrorKind::Truncated {
                        column: c,
                        expected: k,
                    },
                ));
            };
            let row = number(w, "row", MOST).map_err(|k| fail(line, k))?;
            if row == 0 || row > rows {
                return Err(fail(
                    line,
                    OrLibErrorKind::RowOutOfRange {
                        column: c,
                        row,
                        rows,
                    },
                ));
            }
            f.item.push(row as u32 - 1);
        }
        // (A row twice in a column: its rows sorted, not an array of every
        // row, which a file saying 4 billion rows would make.)
        let mut mine = f.item[*f.start.last().unwrap_or(&0) as usize..].to_vec();
        mine.sort_unstable();
        if let Some(w) = mine.windows(2).find(|w| w[0] == w[1]) {
            return Err(fail(
                line,
                OrLibErrorKind::RowTwice {
                    column: c,
                    row: w[0] as u64 + 1,
                },
            ));
        }
        f.start.push(f.item.len() as u32);
    }
    if let Some((line, w)) = n.next() {
        return Err(fail(
            line,
            OrLibErrorKind::Trailing(String::from_utf8_lossy(w).into_owned()),
        ));
    }
    Ok(f)
}

/// Does the text read exactly as the set covering layout: `rows columns`,
/// the costs of the columns, then for each row `k column1 ... columnk`?
fn covering(n: &mut Numbers<'_>) -> bool {
    let mut take = |most: u64| n.next().and_then(|(_, w)| number(w, "", most).ok());
    let (Some(rows), Some(columns)) = (take(MOST), take(MOST)) else {
        return false;
    };
    for _ in 0..columns {
        if take(u64::MAX).is_none() {
            return false;
        }
    }
    for _ in 0..rows {
        let Some(k) = take(MOST) else {
            return false;
        };
        for _ in 0..k {
            if take(columns).is_none_or(|c| c < 1) {
                return false;
            }
        }
    }
    take(u64::MAX).is_none() && n.at > n.words.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (u64, OrLibErrorKind) {
        let e = read(text.as_bytes(), &Stop::default()).unwrap_err();
        (e.line, e.kind)
    }

    #[test]
    fn the_errors_name_the_line() {
        assert_eq!(
            kind("2 1\n4 2 1 3\n"),
            (
                2,
                OrLibErrorKind::RowOutOfRange {
                    column: 1,
                    row: 3,
                    rows: 2
                }
            )
        );
        assert_eq!(
            kind("2 1\n4 3 1\n2\n"),
            (
                3,
                OrLibErrorKind::Truncated {
                    column: 1,
                    expected: 3
                }
            )
        );
        assert_eq!(
            kind("2 2\n4 2 1 2\n"),
            (
                2,
                OrLibErrorKind::TooFewColumns {
                    columns: 2,
                    found: 1
                }
            )
        );
        assert_eq!(
            kind("2 1\n-4 2 1 2\n").1,
            OrLibErrorKind::NotANumber {
                what: "cost",
                word: "-4".into()
            }
        );
        assert_eq!(
            kind("2 1\n4.5 2 1 2\n").1,
            OrLibErrorKind::NotANumber {
                what: "cost",
                word: "4.5".into()
            }
        );
        assert_eq!(
            kind("2 1\n4 2 1 2\n7\n"),
            (3, OrLibErrorKind::Trailing("7".into()))
        );
        assert_eq!(
            kind("2 1\n4 2 1 1\n"),
            (2, OrLibErrorKind::RowTwice { column: 1, row: 1 })
        );
        assert_eq!(
            kind("99999999999 1\n").1,
            OrLibErrorKind::TooLarge {
                what: "rows",
                word: "99999999999".into()
            }
        );
        assert_eq!(kind(""), (0, OrLibErrorKind::Empty));
    }

    #[test]
    fn the_set_covering_layout_is_named_where_it_departs() {
        // 3 rows, 4 columns: costs 1 2 3 4; row 1 covered by columns 1 2,
        // row 2 by 2 3 4, row 3 by 4. As partitioning: column 1 costs 1,
        // covers 2 rows: 3 and 4 -- row 4 is out of range, on line 2.
        let scp = "3 4\n1 2 3 4\n2 1 2\n3 2 3 4\n1 4\n";
        assert_eq!(kind(scp), (2, OrLibErrorKind::CoveringLayout));
    }
}
