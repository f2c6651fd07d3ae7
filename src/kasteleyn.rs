//! Kasteleyn's count of perfect matchings (the `xc` crate's `kasteleyn`
//! module), run on a thread of its own so that Ctrl-C and the run's stop
//! flag end it.

use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use xc::kasteleyn::KasteleynError;

use crate::budget::RunBudget;
use crate::errors;
use crate::interrupt::until_stopped;
use crate::memo::to_int;
use crate::problem::PyCompiledProblem;

/// Why the method does not apply (see [`why`]).
type Refusal = (&'static str, usize);

/// Why the method does not apply: (what, which), `what` one of "pair" (the
/// option `which` does not hold two primary items), "secondary" (the
/// option holds one), "multiplicity" (the primary item `which` has other
/// bounds than 1:1), "planar" (the part of the graph holding item `which`
/// is not planar), "memory" (the determinant would hold `which` bytes,
/// past the limit).
fn why(e: &KasteleynError) -> PyResult<Refusal> {
    Ok(match *e {
        KasteleynError::NotAPair(o) => ("pair", o),
        KasteleynError::Secondary(o) => ("secondary", o),
        KasteleynError::Multiplicity(i) => ("multiplicity", i),
        KasteleynError::NotPlanar(i) => ("planar", i),
        KasteleynError::TooLarge(b) => ("memory", b as usize),
        KasteleynError::Internal => return Err(errors::internal(e.to_string())),
    })
}

/// None if Kasteleyn's method could count `problem` were its graph planar
/// (every option two primary items, each to be covered once), else why not
/// (see `kasteleyn_count`); reads the problem once.
#[pyfunction]
pub fn kasteleyn_check(problem: &PyCompiledProblem) -> PyResult<Option<Refusal>> {
    match xc::kasteleyn::matching_graph(&problem.inner) {
        Ok(_) => Ok(None),
        Err(e) => why(&e).map(Some),
    }
}

/// (count, why): the number of perfect matchings of `problem`'s graph by
/// Kasteleyn's method and None; or None and why it does not apply
/// (`kasteleyn_check`'s pair, ("planar", item), or ("memory", bytes) past
/// `memory_limit`); or (None, None) if the
/// `budget`'s flag rose first. Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (problem, memory_limit=None, budget=None))]
pub fn kasteleyn_count<'py>(
    py: Python<'py>,
    problem: &PyCompiledProblem,
    memory_limit: Option<u64>,
    budget: Option<RunBudget<'_>>,
) -> PyResult<(Option<Bound<'py, PyAny>>, Option<Refusal>)> {
    let p = problem.inner.clone();
    let halt = AtomicBool::new(false);
    let (result, signal) = until_stopped(
        py,
        "the Kasteleyn count",
        &halt,
        budget.as_ref().map(|b| b.stop.flag()),
        || xc::kasteleyn::count(&p, memory_limit.unwrap_or(u64::MAX), &halt),
    )?;
    if let Some(e) = signal {
        return Err(e);
    }
    match result {
        Ok(Some(n)) => Ok((Some(to_int(py, &n)?), None)),
        Ok(None) => Ok((None, None)),
        Err(e) => Ok((None, Some(why(&e)?))),
    }
}
