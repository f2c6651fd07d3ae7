//! `CompiledProblem`: the frozen arrays of a problem, shared by searches.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::to_py;

/// A problem compiled into flat arrays (items numbered primary first, colors
/// as positive integers, options in CSR form). Immutable; pickles by its arrays.
#[pyclass(name = "CompiledProblem", module = "covering._core", frozen)]
pub struct PyCompiledProblem {
    pub inner: Arc<xc::CompiledProblem>,
}

#[pymethods]
impl PyCompiledProblem {
    #[new]
    #[pyo3(signature = (n_primary, n_secondary, lo, hi, option_start, option_item, option_color))]
    fn new(
        n_primary: u32,
        n_secondary: u32,
        lo: Vec<u32>,
        hi: Vec<u32>,
        option_start: Vec<u32>,
        option_item: Vec<u32>,
        option_color: Vec<u32>,
    ) -> PyResult<Self> {
        let p = xc::CompiledProblem::new(
            n_primary,
            n_secondary,
            lo,
            hi,
            option_start,
            option_item,
            option_color,
        )
        .map_err(to_py)?;
        Ok(PyCompiledProblem { inner: Arc::new(p) })
    }

    #[getter]
    fn n_primary(&self) -> usize {
        self.inner.n_primary()
    }
    #[getter]
    fn n_secondary(&self) -> usize {
        self.inner.n_secondary()
    }
    #[getter]
    fn n_options(&self) -> usize {
        self.inner.n_options()
    }
    #[getter]
    fn n_entries(&self) -> usize {
        self.inner.n_entries()
    }
    #[getter]
    fn has_colors(&self) -> bool {
        self.inner.has_colors()
    }
    #[getter]
    fn has_multiplicities(&self) -> bool {
        self.inner.has_multiplicities()
    }

    /// Does this set of option ids meet every rule of the problem?
    fn is_solution(&self, options: Vec<u32>) -> bool {
        self.inner.is_solution(&options)
    }

    /// The constructor's arguments, so that pickling rebuilds the same problem.
    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.arrays(py)
    }

    /// The flat arrays (n_primary, n_secondary, lo, hi, option_start,
    /// option_item, option_color), as the constructor takes them.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let p = &self.inner;
        (
            p.n_primary(),
            p.n_secondary(),
            p.lo().to_vec(),
            p.hi().to_vec(),
            p.option_start().to_vec(),
            p.option_item().to_vec(),
            p.option_color().to_vec(),
        )
            .into_pyobject(py)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.inner == other.inner
    }

    fn __repr__(&self) -> String {
        format!(
            "CompiledProblem({} primary, {} secondary items, {} options)",
            self.inner.n_primary(),
            self.inner.n_secondary(),
            self.inner.n_options()
        )
    }
}
