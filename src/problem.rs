//! `CompiledProblem`: the frozen arrays of a problem, shared by searches.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::convert::{self, from_u32_bytes, u32_bytes};
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

    /// The same, with bounds of any size up to 2**64 - 1 (made exact for the
    /// engine: see `xc::CompiledProblem::with_wide_bounds`) and the option
    /// arrays as bytes of native `u32` (Python's `array("I")`), so that a
    /// million options cross without a Python int each.
    #[staticmethod]
    #[pyo3(signature = (n_primary, n_secondary, lo, hi, option_start, option_item, option_color))]
    fn from_bytes(
        n_primary: u32,
        n_secondary: u32,
        lo: Vec<u64>,
        hi: Vec<u64>,
        option_start: &[u8],
        option_item: &[u8],
        option_color: &[u8],
    ) -> PyResult<Self> {
        let p = xc::CompiledProblem::with_wide_bounds(
            n_primary,
            n_secondary,
            lo,
            hi,
            from_u32_bytes(option_start, "option_start")?,
            from_u32_bytes(option_item, "option_item")?,
            from_u32_bytes(option_color, "option_color")?,
        )
        .map_err(to_py)?;
        Ok(PyCompiledProblem { inner: Arc::new(p) })
    }

    /// The option arrays (option_start, option_item, option_color) as bytes
    /// of native `u32`; option_color is empty when no option has a color.
    fn option_bytes<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
    ) {
        let p = &self.inner;
        (
            u32_bytes(py, p.option_start()),
            u32_bytes(py, p.option_item()),
            u32_bytes(py, p.option_color()),
        )
    }

    /// The problem reduced as Knuth's DLX-PRE does (`xc::reduce`), within
    /// `work` units (None: until nothing changes): (the reduced problem, the
    /// original id of each option kept, of each item kept, rounds, whether
    /// it ran to the end, a primary item no option can cover or None, the
    /// work spent). On a thread of its own: Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (work=None))]
    #[allow(clippy::type_complexity)]
    fn reduce(
        &self,
        py: Python<'_>,
        work: Option<u64>,
    ) -> PyResult<(
        PyCompiledProblem,
        Vec<u32>,
        Vec<u32>,
        u32,
        bool,
        Option<u32>,
        u64,
    )> {
        let p = &self.inner;
        let (r, signal) = crate::interrupt::until_interrupted(py, "the reduction", |stop| {
            xc::reduce(p, work.unwrap_or(u64::MAX), stop)
        })?;
        if let Some(e) = signal {
            return Err(e);
        }
        Ok((
            PyCompiledProblem {
                inner: Arc::new(r.problem),
            },
            r.options,
            r.items,
            r.rounds,
            r.complete,
            r.infeasible,
            r.work,
        ))
    }

    /// The bounds of the primary items, (lo, hi).
    fn bounds(&self) -> (Vec<u32>, Vec<u32>) {
        (self.inner.lo().to_vec(), self.inner.hi().to_vec())
    }

    /// Pickled by its arrays as bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let p = &me.inner;
        let lo: Vec<u64> = p.lo().iter().map(|&x| x as u64).collect();
        let hi: Vec<u64> = p.hi().iter().map(|&x| x as u64).collect();
        let (a, b, c) = me.option_bytes(py);
        let args = (p.n_primary(), p.n_secondary(), lo, hi, a, b, c).into_pyobject(py)?;
        Ok((slf.get_type().getattr("from_bytes")?, args))
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

    /// The bytes an engine ("auto", "cells", "bits", "sat" for the CDCL
    /// solver, or "mincost" for the minimum-cost search keeping the `k`
    /// best) would hold for this problem, known before it is built.
    #[pyo3(signature = (engine, k=1))]
    fn footprint(&self, engine: &str, k: u64) -> PyResult<u64> {
        if engine == "sat" {
            return Ok(sat::Sat::bytes(&self.inner));
        }
        if engine == "mincost" {
            return Ok(xc::footprint::mincost_bytes(&self.inner, k));
        }
        Ok(xc::footprint::search_bytes(
            &self.inner,
            convert::engine(engine)?,
        ))
    }

    /// The engine a search for a first solution should dance on ("cells" or
    /// "bits", see `xc::Search::first_engine`).
    #[getter]
    fn first_engine(&self) -> &'static str {
        convert::engine_name(xc::Search::first_engine(&self.inner))
    }

    /// The engine ("cells" or "bits") whose search in the input order races
    /// `first_engine`'s for a first solution, or None (see
    /// `xc::Search::first_beside`).
    #[getter]
    fn first_beside(&self) -> Option<&'static str> {
        xc::Search::first_beside(&self.inner).map(convert::engine_name)
    }

    /// The data structure a search with `engine` ("auto", "cells" or
    /// "bits") dances on: "cells" or "bits" (see `xc::Search::engine_for`).
    #[pyo3(signature = (engine="auto"))]
    fn search_engine(&self, engine: &str) -> PyResult<&'static str> {
        let engine = convert::engine(engine)?;
        Ok(convert::engine_name(xc::Search::engine_for(
            &self.inner,
            engine,
        )))
    }

    /// The same problem with its primary items renumbered: `order[k]` becomes
    /// item k (a permutation of the primary items, else ValueError). Options
    /// keep their numbers and solutions.
    fn with_primary_order(&self, order: Vec<u32>) -> PyResult<Self> {
        convert::check_order(&self.inner, &order)?;
        Ok(PyCompiledProblem {
            inner: Arc::new(self.inner.with_primary_order(&order)),
        })
    }

    /// Does this set of option ids meet every rule of the problem?
    fn is_solution(&self, options: Vec<u32>) -> bool {
        self.inner.is_solution(&options)
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

/// Options in bulk (bytes of native `u32`, as `CompiledProblem.from_bytes`
/// takes them) checked over `n_items` items: (None, ids of the options
/// skipped for having no primary item, then the option arrays without them,
/// as bytes); or, for options that break a rule, (kind, option, item) and
/// empty rest, kind "unknown", "repeated", "color_on_primary" or "layout",
/// the option by its id in the input, for the Python layer to word.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn sift_options<'py>(
    py: Python<'py>,
    n_primary: u32,
    n_items: u32,
    option_start: &[u8],
    option_item: &[u8],
    option_color: &[u8],
) -> PyResult<(
    Option<(&'static str, u32, u32)>,
    Vec<u32>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let sifted = xc::sift_options(
        n_primary,
        n_items,
        from_u32_bytes(option_start, "option_start")?,
        from_u32_bytes(option_item, "option_item")?,
        from_u32_bytes(option_color, "option_color")?,
    );
    let s = match sifted {
        Ok(s) => s,
        Err(e) => {
            let (kind, option, item) = match e {
                xc::Error::UnknownItem { option, item } => ("unknown", option, item),
                xc::Error::RepeatedItem { option, item } => ("repeated", option, item),
                xc::Error::ColorOnPrimary { option, item } => ("color_on_primary", option, item),
                xc::Error::OptionStart { option } => ("layout", option, 0),
                xc::Error::ColorsLength { .. } => ("colors_length", 0, 0),
                other => return Err(to_py(other)),
            };
            let empty = PyBytes::new(py, b"");
            return Ok((
                Some((kind, option, item)),
                vec![],
                empty.clone(),
                empty.clone(),
                empty,
            ));
        }
    };
    Ok((
        None,
        s.skipped,
        u32_bytes(py, &s.option_start),
        u32_bytes(py, &s.option_item),
        u32_bytes(py, &s.option_color),
    ))
}
