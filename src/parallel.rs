//! `Pool`: the engine's threads, from Python. Pieces cross the boundary as
//! lists of ints: `o` puts option `o` into every solution, `-o - 1` leaves it out.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::prelude::*;

use crate::budget::RunBudget;
use crate::convert;
use crate::errors;
use crate::problem::PyCompiledProblem;
use crate::stats::{PoolSnapshot, PyPoolProgress};

/// A piece as Python sees it, with its weight (its share of the tree).
type WeightedPiece = (Vec<i64>, f64);

fn to_moves(piece: &[i64], n_options: usize) -> PyResult<Vec<xc::Move>> {
    piece
        .iter()
        .map(|&x| {
            let (o, m) = if x >= 0 {
                (x, xc::Move::Include(x as u32))
            } else {
                (-x - 1, xc::Move::Exclude((-x - 1) as u32))
            };
            if o as usize >= n_options {
                Err(errors::invalid(format!(
                    "a piece names option {o}, but there are {n_options}"
                )))
            } else {
                Ok(m)
            }
        })
        .collect()
}

pub fn from_moves(moves: &[xc::Move]) -> Vec<i64> {
    moves
        .iter()
        .map(|m| match *m {
            xc::Move::Include(o) => o as i64,
            xc::Move::Exclude(o) => -(o as i64) - 1,
        })
        .collect()
}

/// Cuts the pieces `roots` ([[]] for the whole tree) into about `target`
/// pieces by Knuth's estimates (`probes` random probes each, seeded:
/// reproducible); returns (piece, estimated nodes), largest first.
#[pyfunction]
#[pyo3(signature = (problem, roots, target, probes=16, seed=0, engine="auto"))]
pub fn split_pieces(
    py: Python<'_>,
    problem: &PyCompiledProblem,
    roots: Vec<Vec<i64>>,
    target: usize,
    probes: u32,
    seed: u64,
    engine: &str,
) -> PyResult<Vec<(Vec<i64>, f64)>> {
    let p = problem.inner.clone();
    let roots = roots
        .iter()
        .map(|r| to_moves(r, p.n_options()))
        .collect::<PyResult<Vec<_>>>()?;
    let engine = convert::engine(engine)?;
    let (pieces, signal) = crate::interrupt::until_interrupted(py, "the split", |stop| {
        xc::split_until(&p, &roots, target, probes, seed, engine, stop)
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    Ok(pieces
        .into_iter()
        .map(|e| (from_moves(&e.moves), e.estimate))
        .collect())
}

/// Knuth's estimate of the number of nodes of the whole search tree, from
/// `probes` random paths down it (seeded).
#[pyfunction]
#[pyo3(signature = (problem, probes=64, seed=0, engine="auto"))]
pub fn estimate_nodes(
    py: Python<'_>,
    problem: &PyCompiledProblem,
    probes: u32,
    seed: u64,
    engine: &str,
) -> PyResult<f64> {
    let p = problem.inner.clone();
    let engine = convert::engine(engine)?;
    let (estimate, signal) = crate::interrupt::until_interrupted(py, "the estimate", |halt| {
        xc::Search::with_engine(p, None, engine).estimate_until(
            probes,
            &mut xc::Rng::new(seed),
            halt,
        )
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    estimate.ok_or_else(|| crate::errors::internal("the estimate stopped".to_string()))
}

/// The engine's threads, searching pieces of one problem.
#[pyclass(name = "Pool", module = "covering._core", frozen)]
pub struct PyPool {
    pool: Arc<xc::Pool>,
    shared: Arc<xc::Shared>,
    n_options: usize,
    /// The background run of `solutions()`, if one is under way.
    stream: Mutex<Option<Stream>>,
}

struct Stream {
    rx: Receiver<Vec<u32>>,
    worker: JoinHandle<xc::Report>,
}

impl PyPool {
    /// Pieces from Python, with `weights` (default: equal parts of 1).
    fn pieces(&self, pieces: Vec<Vec<i64>>, weights: Option<Vec<f64>>) -> PyResult<Vec<xc::Piece>> {
        let moves = pieces
            .iter()
            .map(|p| to_moves(p, self.n_options))
            .collect::<PyResult<Vec<_>>>()?;
        let Some(weights) = weights else {
            return Ok(xc::Piece::equal(moves, 1.0));
        };
        if weights.len() != moves.len() || weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(errors::invalid(
                "weights: one finite number >= 0 for each piece",
            ));
        }
        Ok(moves
            .into_iter()
            .zip(weights)
            .map(|(moves, weight)| xc::Piece { moves, weight })
            .collect())
    }

    fn finish_stream(&self) -> Option<xc::Report> {
        let stream = self.stream.lock().ok()?.take()?;
        self.shared.stop.store(true, Ordering::Relaxed);
        drop(stream.rx); // unblocks a thread waiting to send
        stream.worker.join().ok()
    }
}

#[pymethods]
impl PyPool {
    #[new]
    #[pyo3(signature = (problem, threads, engine="auto"))]
    fn new(problem: &PyCompiledProblem, threads: usize, engine: &str) -> PyResult<Self> {
        let pool = xc::Pool::new(
            problem.inner.clone(),
            threads.max(1),
            convert::engine(engine)?,
        );
        Ok(PyPool {
            pool: Arc::new(pool),
            shared: Arc::new(xc::Shared::default()),
            n_options: problem.inner.n_options(),
            stream: Mutex::new(None),
        })
    }

    /// Counts the solutions of `pieces` (weighing `weights`, default equal
    /// parts of 1) on the pool's threads, without the GIL. Returns (count,
    /// nodes, leftover, interrupted, complete): leftover is what a node
    /// budget left unexplored, as (piece, weight) pairs, to resume; after
    /// `cancel()` or Ctrl-C (then `interrupted` is True) only the pieces no
    /// thread had started; `complete` is True after a run to the end. The
    /// run's `budget` holds the nodes of this count (all threads together);
    /// its flag rising stops the threads too (not `interrupted`).
    #[pyo3(signature = (pieces, weights=None, budget=None))]
    fn count(
        &self,
        py: Python<'_>,
        pieces: Vec<Vec<i64>>,
        weights: Option<Vec<f64>>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<(u64, u64, Vec<WeightedPiece>, bool, bool)> {
        let pieces = self.pieces(pieces, weights)?;
        let mut pool = (*self.pool).clone();
        pool.node_budget = budget.as_ref().and_then(|b| b.nodes);
        self.shared.stop.store(false, Ordering::Relaxed);
        // Ctrl-C stops the threads (through the pool's stop flag, which they
        // watch) and is reported as `interrupted`, the count so far kept.
        let (report, signal) = crate::interrupt::until_stopped(
            py,
            "a search thread",
            &self.shared.stop,
            budget.as_ref().map(|b| b.stop.flag()),
            || pool.count(pieces, &self.shared),
        )?;
        let interrupted = signal.is_some();
        let leftover = report
            .leftover
            .iter()
            .map(|p| (from_moves(&p.moves), p.weight))
            .collect();
        Ok((
            report.solutions,
            report.nodes,
            leftover,
            interrupted,
            report.complete,
        ))
    }

    /// Starts searching `pieces` for solutions on the pool's threads; take
    /// them with `next_solution()`. A run still under way is stopped first.
    fn start_solutions(&self, pieces: Vec<Vec<i64>>) -> PyResult<()> {
        let pieces = self.pieces(pieces, None)?;
        self.finish_stream();
        self.shared.stop.store(false, Ordering::Relaxed);
        let (tx, rx) = sync_channel(1024);
        let (pool, shared) = (self.pool.clone(), self.shared.clone());
        let worker = std::thread::spawn(move || pool.solutions(pieces, &shared, tx));
        *self
            .stream
            .lock()
            .map_err(|_| errors::internal("internal error"))? = Some(Stream { rx, worker });
        Ok(())
    }

    /// The next solution of the run started by `start_solutions` (sorted
    /// option ids), or None when there are no more. Waits without the GIL,
    /// and sees Ctrl-C; None too once the flag of the run's `budget` is up
    /// (the caller tells the two apart).
    #[pyo3(signature = (budget=None))]
    fn next_solution(
        &self,
        py: Python<'_>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<Option<Vec<u32>>> {
        loop {
            if budget
                .as_ref()
                .is_some_and(|b| b.stop.flag().load(Ordering::Relaxed))
            {
                self.finish_stream();
                return Ok(None);
            }
            // The lock is taken without the GIL, so that two Python threads
            // reading one stream cannot wait on each other.
            let got = py.detach(|| {
                let guard = self.stream.lock().ok()?;
                Some(guard.as_ref()?.rx.recv_timeout(Duration::from_millis(20)))
            });
            match got {
                None => return Ok(None),
                Some(Ok(sol)) => return Ok(Some(sol)),
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    self.finish_stream();
                    return Ok(None);
                }
                Some(Err(RecvTimeoutError::Timeout)) => {
                    if let Err(e) = py.check_signals() {
                        self.finish_stream();
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Stops the threads at their next slice (from any thread).
    fn cancel(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// (nodes, solutions, pieces searched to the end, pieces handed out,
    /// weight of the work done) so far, over all runs.
    #[getter]
    fn progress(&self) -> PyPoolProgress {
        let s = &self.shared;
        let load = |x: &std::sync::atomic::AtomicU64| x.load(Ordering::Relaxed);
        PyPoolProgress::from(&PoolSnapshot {
            nodes: load(&s.nodes),
            solutions: load(&s.solutions),
            pieces_done: load(&s.pieces_done),
            pieces_made: load(&s.pieces_made),
            fraction: s.fraction(),
        })
    }
}

impl Drop for PyPool {
    fn drop(&mut self) {
        self.finish_stream();
    }
}
