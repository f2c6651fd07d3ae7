//! Knuth's `.dlx` text format, read in one pass: bytes in, arrays out (and
//! OR-Library's set partitioning files, [`orlib`]).
//!
//! The format of DLX1, DLX2, DLX3 and SSXCC: comment lines start with `|`
//! (after blanks), blank lines are skipped; the first other line names the
//! items (primary, then `|`, then secondary; DLX3's bounds `u:v|name` or
//! `v|name` before a primary name); each further line is an option, item
//! names with `name:color` on secondary items, and DLX5's costs: entries
//! `|n` (a decimal number) after any item, the option costing their sum.
//!
//! This crate knows text and nothing of searching; the engine crate (`xc`)
//! knows searching and never sees a string. [`read`] turns the bytes of a
//! file into what the engine is built from: items numbered primary first,
//! bounds, colors numbered from 1 in order of first use, options in CSR
//! form, and each option's line as a span of the input (its label, made a
//! string only when someone asks for it). Errors name the line and carry the
//! offending name, so that the caller words them (see [`ErrorKind`]).
//!
//! ```
//! let f = dlx::read(b"A B | x\nA x:1\n| comment\nB x:1\n", &Default::default()).unwrap();
//! assert_eq!(f.n_primary, 2);
//! assert_eq!(f.option_start, vec![0, 2, 4]);
//! assert_eq!(f.option_item, vec![0, 2, 1, 2]);
//! assert_eq!(f.option_color, vec![0, 1, 0, 1]);
//! assert_eq!(&b"A B | x\nA x:1\n| comment\nB x:1\n"[f.labels[1].0..f.labels[1].1], b"B x:1");
//! ```

mod names;
pub mod orlib;
mod read;
mod text;

pub use read::{Bound, DlxFile, Skipped, held_bytes, read};
pub use text::{BLANKS, Span, shape};

use std::sync::atomic::AtomicBool;

/// What can stop a read early: a flag set by another thread (Ctrl-C).
#[derive(Default)]
pub struct Stop {
    /// Polled every few thousand lines and every megabyte scanned.
    pub flag: AtomicBool,
}

/// Why a text is not a problem: the kind, with the line (1-based; 0 when the
/// error has no line) and the line's text where it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub line: u64,
    pub text: String,
    pub kind: ErrorKind,
}

/// The errors of the format, each with what its message names. Names are
/// given raw, so that the caller quotes them as its language does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A byte that is not UTF-8, at `column` (1-based, in bytes) of its line.
    NotUtf8 { column: u64, byte: u8 },
    /// A control character (other than the blanks) at `column` (1-based, in characters).
    Control { column: u64, code: u32 },
    /// No item line at all.
    Empty,
    /// The item line has `|` twice.
    SecondBar,
    /// A secondary item name with `:` or `|`.
    IllegalSecondary(String),
    /// A primary item name with `:` or `|`.
    IllegalPrimary(String),
    /// A bound prefix with nothing after it.
    EmptyItemName,
    /// A bound `0|name` (or `u:0|name`).
    UpperBoundZero(String),
    /// `u:v|name` with `u > v`, as written (decimal digits, no leading zeros).
    LowerExceedsUpper {
        name: String,
        lo: String,
        hi: String,
    },
    /// An item named twice on the item line.
    DeclaredTwice(String),
    /// The item line has no primary item.
    NoPrimary,
    /// An entry `:color` with no name.
    EmptyNameIn(String),
    /// An entry `name:` with no color.
    EmptyColor(String),
    /// An entry naming no item of the item line.
    UnknownItem(String),
    /// The same item twice in one option.
    AppearsTwice(String),
    /// A color on a primary item.
    ColorOnPrimary(String),
    /// A cost entry `|...` that is not `|` and decimal digits (the entry).
    BadCost(String),
    /// An option whose costs add up past `u64::MAX` (the entry that did).
    CostTooLarge(String),
    /// More entries than the engine's 32-bit indices hold.
    TooLarge,
    /// The stop flag was raised.
    Stopped,
}
