//! The line games: tiles matched end to end on a line of two ends (or
//! four, with a spinner), as every game of the rule book's §1–§4 and §6
//! is played.

pub mod connect;
pub mod end;
pub mod layout;
pub mod line_setup;
