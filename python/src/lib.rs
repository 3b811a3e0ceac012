//! `pips._pips`: pips's rules in-process for Python.
//!
//! The extension module the `pips` Python package wraps. It calls the
//! crate's rules, bots and codecs directly (nothing is copied, nothing goes
//! through a server), and speaks the service's JSON wherever a state, a
//! move, a view or an event crosses into Python, so that a state moves
//! freely between an in-process game and a pips server.
//!
//! - [`game`]: `Game`, one match: legal moves and actions, checked play,
//!   views, states and tokens, suggestions.
//! - [`moves`]: `Move`, one move, and `Update`, what a move did.
//! - [`errors`]: refusals as the package's exceptions, with the service's
//!   code, reason and field.
//! - [`actions`]: actions decoded and legal-action masks written, for
//!   `Game` and `Batch`.
//! - [`batch`]: `Batch`, many matches stepped in one call (numpy in and
//!   out, the GIL released).
//! - [`rewards`]: points as rewards, for every learning environment.
//! - [`review`]: a match's review and its notation.
//! - [`json`]: JSON ⇄ Python values and ⇄ the service's messages.

mod actions;
mod batch;
mod errors;
mod game;
mod json;
mod moves;
mod review;
mod rewards;

use pyo3::prelude::*;

/// Every preset the package plays, as the service's `ListVariants`
/// answers: a list of dicts with `id`, `title`, `description`, `source`,
/// `players` (the seat counts it is played by) and `defaults` (for each
/// seat count, `players` and the `rules` in force).
#[pyfunction]
fn variants(py: Python<'_>) -> PyResult<Py<PyAny>> {
    let variants = pips::service::engine::list_variants().variants;
    json::to_python(py, &variants)
}

/// The extension module.
#[pymodule]
fn _pips(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<game::PyGame>()?;
    module.add_class::<moves::PyMove>()?;
    module.add_class::<moves::PyUpdate>()?;
    module.add_class::<batch::PyBatch>()?;
    module.add_function(wrap_pyfunction!(rewards::hand_rewards, module)?)?;
    module.add_function(wrap_pyfunction!(rewards::match_rewards, module)?)?;
    module.add_function(wrap_pyfunction!(variants, module)?)?;
    module.add_function(wrap_pyfunction!(review::review, module)?)?;
    module.add_function(wrap_pyfunction!(review::write_notation, module)?)?;
    module.add_function(wrap_pyfunction!(review::read_notation, module)?)?;
    module.add(
        "LEVELS",
        pips::bots::Level::NAMES.map(|(name, _)| name).to_vec(),
    )?;
    Ok(())
}
