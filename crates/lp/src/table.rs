//! A 0/1 matrix by its columns, with a cost a column: what every LP of
//! this crate reads, and what the engine's Lagrangian ascent prices.
//!
//! ```
//! use lp::Table;
//! // Columns {0, 1} (cost 5) and {1} (cost 2).
//! let t = Table { start: vec![0, 2, 3], rows: vec![0, 1, 1], cost: vec![5.0, 2.0] };
//! assert_eq!(t.columns().rows_of(0), &[0, 1]);
//! assert_eq!(t.columns().reduced(0, &[1.0, 1.5]), 2.5);
//! ```

/// Columns (options) in compressed form: column `j` has cost `cost[j]` and
/// the rows `rows[start[j]..start[j + 1]]`.
pub struct Columns<'a> {
    pub start: &'a [u32],
    pub rows: &'a [u32],
    pub cost: &'a [f64],
}

/// Columns owned, read through [`Columns`]: the columns of the simplex,
/// and in the engine the options of its branch and bound on Lagrangian
/// bounds.
#[derive(Clone)]
pub struct Table {
    pub start: Vec<u32>,
    pub rows: Vec<u32>,
    pub cost: Vec<f64>,
}

impl Table {
    pub fn columns(&self) -> Columns<'_> {
        Columns {
            start: &self.start,
            rows: &self.rows,
            cost: &self.cost,
        }
    }
}

impl<'a> Columns<'a> {
    #[inline]
    pub fn rows_of(&self, j: u32) -> &'a [u32] {
        &self.rows[self.start[j as usize] as usize..self.start[j as usize + 1] as usize]
    }

    /// Column `j`'s reduced cost under multipliers `y`.
    #[inline]
    pub fn reduced(&self, j: u32, y: &[f64]) -> f64 {
        let mut rc = self.cost[j as usize];
        for &r in self.rows_of(j) {
            rc -= y[r as usize];
        }
        rc
    }

    /// The reduced costs of four columns, each summed in the order of
    /// [`Self::reduced`] (the same values to the last bit), side by side:
    /// each sum is a chain of dependent subtractions, and four chains keep
    /// the processor busy where one waits on each (the ascent's hot loop).
    #[inline]
    pub fn reduced4(&self, j: [u32; 4], y: &[f64]) -> [f64; 4] {
        let rows = j.map(|j| self.rows_of(j));
        let mut rc = j.map(|j| self.cost[j as usize]);
        let common = rows.iter().map(|r| r.len()).min().unwrap_or(0);
        let (r0, r1, r2, r3) = (
            &rows[0][..common],
            &rows[1][..common],
            &rows[2][..common],
            &rows[3][..common],
        );
        for (((&a, &b), &c), &d) in r0.iter().zip(r1).zip(r2).zip(r3) {
            rc[0] -= y[a as usize];
            rc[1] -= y[b as usize];
            rc[2] -= y[c as usize];
            rc[3] -= y[d as usize];
        }
        for k in 0..4 {
            for &r in &rows[k][common..] {
                rc[k] -= y[r as usize];
            }
        }
        rc
    }
}

/// Why arrays are not a table of `m` rows (see [`Table::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// `start` does not begin at 0, go up, and end at the rows' length.
    Starts,
    /// A column's row is past the last row, or named twice.
    Row { column: usize },
    /// A column's cost is not a finite number.
    Cost { column: usize },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Starts => write!(
                f,
                "the columns' starts do not go from 0 up to the rows' length"
            ),
            TableError::Row { column } => {
                write!(f, "column {column} has a row past the last or twice")
            }
            TableError::Cost { column } => {
                write!(f, "column {column}'s cost is not a finite number")
            }
        }
    }
}

impl Table {
    /// Whether these arrays are a 0/1 matrix of `m` rows with a finite
    /// cost a column, as every LP of this crate takes them.
    ///
    /// ```
    /// use lp::{Table, TableError};
    /// let t = Table { start: vec![0, 2], rows: vec![1, 1], cost: vec![1.0] };
    /// assert_eq!(t.check(2), Err(TableError::Row { column: 0 }));
    /// ```
    pub fn check(&self, m: usize) -> Result<(), TableError> {
        let n = self.cost.len();
        let ends = self.start.len() == n + 1
            && self.start.first() == Some(&0)
            && self.start.last().map(|&e| e as usize) == Some(self.rows.len())
            && self.start.windows(2).all(|w| w[0] <= w[1]);
        if !ends {
            return Err(TableError::Starts);
        }
        let mut seen = vec![usize::MAX; m];
        for column in 0..n {
            if !self.cost[column].is_finite() {
                return Err(TableError::Cost { column });
            }
            for &r in self.columns().rows_of(column as u32) {
                let r = r as usize;
                if r >= m || seen[r] == column {
                    return Err(TableError::Row { column });
                }
                seen[r] = column;
            }
        }
        Ok(())
    }
}
