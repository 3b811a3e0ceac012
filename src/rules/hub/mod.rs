//! The tables with a hub (the rule book's §5): Mexican Train's trains and
//! Chicken Foot's arms, each round played from a double at the centre.

pub mod foot;
pub mod foot_game;
pub mod table;
pub mod table_setup;
pub mod train_game;
pub mod trains;
