//! The queens kernels: the bitboard counter and Knuth's Algorithm G.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use crate::budget::RunBudget;

use crate::errors;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The number of solutions of n-queens (1 <= n <= 32), by bitboards with the
/// half-board symmetry, on `threads` threads, without the GIL: returns
/// (count, complete). The count runs on its own threads while this one
/// watches for Ctrl-C every 20 ms; Ctrl-C stops them within milliseconds and
/// the count so far comes back with complete = False (the caller raises).
/// So does the flag of the run's `budget` rising (its deadline, or a
/// caller's stop); the counter counts no nodes.
#[pyfunction]
#[pyo3(signature = (n, threads=1, budget=None))]
pub fn count_queens(
    py: Python<'_>,
    n: u32,
    threads: usize,
    budget: Option<RunBudget<'_>>,
) -> PyResult<(u64, bool)> {
    if !(1..=32).contains(&n) {
        return Err(errors::invalid(format!(
            "n must be between 1 and 32, not {n}"
        )));
    }
    let halt = AtomicBool::new(false);
    let (report, _signal) = crate::interrupt::until_stopped(
        py,
        "the queens counter",
        &halt,
        budget.as_ref().map(|b| b.stop.flag()),
        || puzzles::queens::count_queens_until(n, threads.max(1), &halt),
    )?;
    Ok(report)
}

/// The infinite queens sequence (OEIS A065188), produced in batches.
#[pyclass(name = "InfiniteQueens", module = "covering._core", frozen)]
pub struct PyInfiniteQueens {
    inner: Mutex<puzzles::queens::InfiniteQueens>,
}

impl PyInfiniteQueens {
    fn fill(&self, py: Python<'_>, count: usize) -> PyResult<Vec<u64>> {
        let mut out = vec![0u64; count];
        py.detach(|| {
            let mut q = self
                .inner
                .lock()
                .map_err(|_| errors::internal("internal error"))?;
            q.fill(&mut out);
            Ok::<(), PyErr>(())
        })?;
        Ok(out)
    }
}

#[pymethods]
impl PyInfiniteQueens {
    #[new]
    fn new() -> Self {
        PyInfiniteQueens {
            inner: Mutex::new(puzzles::queens::InfiniteQueens::new()),
        }
    }

    /// The next `count` terms (1-based rows), as a list.
    fn take(&self, py: Python<'_>, count: usize) -> PyResult<Vec<u64>> {
        self.fill(py, count)
    }

    /// The next `count` terms as bytes: native-endian unsigned 64-bit
    /// integers, for `array.array("Q")` (no Python int per term).
    fn take_bytes<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyBytes>> {
        let terms = self.fill(py, count)?;
        // SAFETY: a slice of u64 is also a valid slice of 8 times as many bytes.
        let bytes =
            unsafe { std::slice::from_raw_parts(terms.as_ptr().cast::<u8>(), terms.len() * 8) };
        Ok(PyBytes::new(py, bytes))
    }

    /// The next `count` terms minus `offset`, in decimal, separated by spaces
    /// (what `covering queens infinite` prints).
    #[pyo3(signature = (count, offset=0))]
    fn take_text(&self, py: Python<'_>, count: usize, offset: u64) -> PyResult<String> {
        let terms = self.fill(py, count)?;
        Ok(py.detach(|| {
            let mut out = String::with_capacity(count * 9);
            for (k, q) in terms.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                out.push_str(&(q - offset).to_string());
            }
            out
        }))
    }

    /// Computes the next `count` terms without keeping them; returns the last
    /// (0 if `count` is 0). This is the kernel alone, for timing.
    fn skip(&self, py: Python<'_>, count: u64) -> PyResult<u64> {
        py.detach(|| {
            let mut q = self
                .inner
                .lock()
                .map_err(|_| errors::internal("internal error"))?;
            let mut last = 0;
            for _ in 0..count {
                last = q.step();
            }
            Ok(last)
        })
    }

    /// How many terms have been produced so far.
    #[getter]
    fn produced(&self) -> PyResult<u64> {
        Ok(self
            .inner
            .lock()
            .map_err(|_| errors::internal("internal error"))?
            .len())
    }
}
