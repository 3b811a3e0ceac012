//! The option space a variant is made of (docs/rules.md). A preset is one
//! value of [`Rules`]; house rules are another. The engine reads only these
//! options, never a variant's name.

use thiserror::Error;

use super::connect::Connect;
use super::layout::Geometry;
use super::tile::TileSet;
use super::tricks::hand::MAX_SEATS as MAX_TRICK_PLAYERS;
use super::tricks::options::{MAX_TARGET, TrickOption, TrickOptions};

/// The most points a bonus (`capicua_bonus`, `pass_bonus`) may be worth.
pub const MAX_BONUS: u16 = 1_000;

/// The fewest seats a game may have.
pub const MIN_PLAYERS: u8 = 2;
/// The most seats a line game may have.
pub const MAX_PLAYERS: u8 = 4;
/// The most seats a train table may have.
pub const MAX_TRAIN_PLAYERS: u8 = 8;

/// Everything that decides how a game is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// Highest half in the set: 6, 9 or 12.
    pub max_pip: u8,
    /// Seats 0+2 and 1+3 form two sides (4 seats only).
    pub partnerships: bool,
    /// Tiles dealt to each seat.
    pub hand_size: u8,
    /// What a seat that cannot place a tile does.
    pub draw: DrawRule,
    /// Tiles that may never be drawn from the boneyard.
    pub boneyard_reserve: u8,
    /// How a tile must touch the number it is placed on.
    pub connect: Connect,
    /// Two ends, or a spinner that opens more.
    pub layout: LayoutRule,
    /// How the open ends score after each tile.
    pub in_play_scoring: InPlayScoring,
    /// Who leads the first hand.
    pub first_lead: LeadRule,
    /// Who leads later hands.
    pub next_lead: NextLeadRule,
    /// How a finished hand is scored.
    pub settlement: Settlement,
    /// How opponents' pips are rounded when a hand is won.
    pub hand_rounding: HandRounding,
    /// Whether the rounded pips count at face value or divided.
    pub hand_scale: HandScale,
    /// What a blocked hand's winner does with its own pips.
    pub blocked_own: BlockedOwnPips,
    /// The side that goes out (or closes) is credited with its partner's
    /// pips as well as the opponents' (partnerships only).
    pub count_partner: bool,
    /// Points a side scores at once when its seat goes out with a capicúa:
    /// a tile that fitted both open ends when they showed different
    /// numbers (0: no bonus).
    pub capicua_bonus: u16,
    /// Points a side scores at once for a pase corrido: its seat placed a
    /// tile and every other seat then passed in turn (0: no bonus).
    pub pass_bonus: u16,
    /// Playing a tile that matches both open ends wins the hand.
    pub closing_wins: bool,
    /// How the match ends.
    pub match_end: MatchEnd,
    /// The score `match_end` refers to (0 for a single hand or rounds).
    pub target: u32,
    /// The kind of table: a line, a hub with trains, or a chicken foot.
    pub table: TableKind,
    /// Train and chicken foot tables: the rounds of a match (round r's hub double is
    /// `max_pip − r + 1`); 0 on a line.
    pub rounds: u8,
    /// Train tables: whether the public Mexican train is played (off:
    /// Private Train).
    pub public_train: bool,
    /// Train tables: a seat's first turn of a round may go on placing
    /// tiles on its own train (the opening chain), ended by `EndTurn`.
    pub opening_chain: bool,
    /// Train and chicken foot tables: what 0-0 left in a hand counts at a
    /// round's end (0: its pips, nothing).
    pub double_blank_pips: u16,
    /// Chicken foot tables: the arms the hub takes before anything else
    /// (4, or 6 for double chicken foot); 0 elsewhere.
    pub hub_arms: u8,
    /// Trick tables: how the hands are bid, played and scored; `None`
    /// elsewhere. (A trick game's other options are fixed: see
    /// [`Rules::tricks`].)
    pub tricks: Option<TrickOptions>,
}

/// The kind of table tiles are placed on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TableKind {
    /// A line: two open ends, or a spinner's four (`layout`).
    Line,
    /// A hub double with a train per seat (and the Mexican train).
    Trains,
    /// A hub double whose arms grow into chicken feet.
    ChickenFoot,
    /// No layout: tiles are bid on and played to tricks (Texas 42, Moon).
    Tricks,
}

impl TableKind {
    /// Whether the table is a hub played in rounds (trains or a chicken
    /// foot) rather than a line.
    #[must_use]
    pub const fn has_hub(self) -> bool {
        matches!(self, TableKind::Trains | TableKind::ChickenFoot)
    }
}

/// What a seat that cannot place a tile does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawRule {
    /// Draw one tile at a time until one can be placed.
    UntilPlayable,
    /// Draw one tile; if it cannot be placed either, pass.
    OneThenPass,
    /// Never draw; pass.
    None,
}

/// The shape of the layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LayoutRule {
    /// Always exactly two open ends.
    TwoEnds,
    /// The first double played is a spinner: after both its long sides are
    /// covered, its short ends open two more arms.
    FirstDoubleSpinner,
    /// As `FirstDoubleSpinner`, but only a double lead becomes the spinner.
    FirstTileDoubleSpinner,
    /// As `FirstDoubleSpinner`, but the spinner's short ends each count its
    /// number while no arm grows from them, and its long sides never count.
    Sniff,
}

/// How the ends total scores after each tile is placed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InPlayScoring {
    /// Nothing scores during play; doubles lie in line.
    None,
    /// A positive multiple of 5 scores its face value.
    FivesFace,
    /// A positive multiple of 5 scores a fifth of it.
    FivesFifths,
    /// A positive multiple of 3 scores a third of it.
    ThreesThirds,
    /// Fifths of a multiple of 5 plus thirds of a multiple of 3.
    FivesAndThrees,
}

/// Who leads a hand whose lead is decided afresh.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LeadRule {
    /// The holder of the highest double leads it (else the heaviest tile).
    HighestDouble,
    /// The holder of 0-0 leads it; else as `HighestDouble`.
    DoubleBlankFirst,
    /// A seat drawn by lot leads any tile.
    Lot,
}

/// Who leads the hands after the first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NextLeadRule {
    /// The seat that went out, any tile; after a blocked hand, `first_lead`.
    WinnerElseFirstLead,
    /// The seat after the previous leader, any tile.
    Rotate,
    /// Always as `first_lead`.
    FirstLead,
    /// The seat that went out (or closed), any tile. After a blocked hand
    /// the seat that placed its last tile (the blocker) if its side won,
    /// the previous leader again on a tie, else the seat after the blocker.
    WinnerOrBlocker,
}

/// How a finished hand is scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Settlement {
    /// The hand's winner (out, closed, or fewest pips when blocked) is
    /// credited with the opponents' pips (`hand_rounding`, `hand_scale`,
    /// `blocked_own`).
    WinnerTakesPips,
    /// Going out (or closing) scores 1; a blocked hand scores nothing.
    WinnerTakesOne,
    /// Lowest is best: the seat that went out or made the fish (placed the
    /// last tile of a blocked hand) scores 0, every other seat adds its own
    /// pips.
    PenaltyOwnPips,
    /// Every seat's r5 pips come off its own side's score (which may go
    /// below 0).
    SubtractOwnRounded,
}

/// How the opponents' pips become the winner's points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandRounding {
    /// Each opponent's pips rounded separately, then added.
    PerOpponent,
    /// The opponents' total, rounded.
    Total,
    /// The raw total.
    None,
}

/// Whether rounded pips count at face value or divided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandScale {
    /// Rounded to the nearest 5, at face value.
    Face,
    /// Rounded to the nearest 5, then divided by 5.
    Fifths,
    /// Rounded to the nearest 3, then divided by 3.
    Thirds,
}

/// What a blocked hand's winner does with its own side's pips.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockedOwnPips {
    /// Subtracts its own hands, rounded and scaled like the opponents'.
    Rounded,
    /// Subtracts its own raw pip total.
    Raw,
    /// Nothing.
    Ignored,
    /// Is credited with them too: every hand's pips, counted as the
    /// opponents' are.
    Added,
}

/// How a match ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchEnd {
    /// The moment a side reaches or passes `target`, it wins.
    ReachTarget,
    /// A side must reach `target` exactly; points that would pass it are
    /// void.
    ExactTarget,
    /// At the end of a hand in which a side reached `target`, the lowest
    /// score wins (a tie for lowest is a draw).
    LoseAtTarget,
    /// One hand; its winner wins the match, a hand nobody wins is a draw.
    SingleHand,
    /// `rounds` rounds (train tables); then the lowest score wins, seats
    /// tied for lowest sharing a drawn match.
    Rounds,
}

/// An option that is out of range, or options that cannot be played
/// together.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{}: {message}", .option.name())]
pub struct RulesError {
    /// The option at fault.
    pub option: RuleOption,
    /// Why, in words a caller can act on.
    pub message: String,
}

impl RulesError {
    pub(super) fn new(option: RuleOption, message: impl Into<String>) -> RulesError {
        RulesError {
            option,
            message: message.into(),
        }
    }
}

/// An option of [`Rules`] that [`Rules::validate`] can find at fault, or
/// the number of seats it is checked with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RuleOption {
    /// The number of seats (not an option, but checked with them).
    Players,
    /// [`Rules::max_pip`].
    MaxPip,
    /// [`Rules::partnerships`].
    Partnerships,
    /// [`Rules::hand_size`].
    HandSize,
    /// [`Rules::connect`].
    Connect,
    /// [`Rules::closing_wins`].
    ClosingWins,
    /// [`Rules::hand_scale`].
    HandScale,
    /// [`Rules::blocked_own`].
    BlockedOwn,
    /// [`Rules::count_partner`].
    CountPartner,
    /// [`Rules::capicua_bonus`].
    CapicuaBonus,
    /// [`Rules::pass_bonus`].
    PassBonus,
    /// [`Rules::settlement`].
    Settlement,
    /// [`Rules::match_end`].
    MatchEnd,
    /// [`Rules::target`].
    Target,
    /// [`Rules::table`].
    Table,
    /// [`Rules::rounds`].
    Rounds,
    /// [`Rules::public_train`].
    PublicTrain,
    /// [`Rules::opening_chain`].
    OpeningChain,
    /// [`Rules::double_blank_pips`].
    DoubleBlankPips,
    /// [`Rules::hub_arms`].
    HubArms,
    /// [`Rules::draw`].
    Draw,
    /// [`Rules::layout`].
    Layout,
    /// [`Rules::in_play_scoring`].
    InPlayScoring,
    /// [`Rules::first_lead`].
    FirstLead,
    /// [`Rules::next_lead`].
    NextLead,
    /// One of [`Rules::tricks`].
    Trick(TrickOption),
}

impl RuleOption {
    /// The option's name, as the field of [`Rules`] is called (`hand_size`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleOption::Players => "players",
            RuleOption::MaxPip => "max_pip",
            RuleOption::Partnerships => "partnerships",
            RuleOption::HandSize => "hand_size",
            RuleOption::Connect => "connect",
            RuleOption::ClosingWins => "closing_wins",
            RuleOption::HandScale => "hand_scale",
            RuleOption::BlockedOwn => "blocked_own",
            RuleOption::CountPartner => "count_partner",
            RuleOption::CapicuaBonus => "capicua_bonus",
            RuleOption::PassBonus => "pass_bonus",
            RuleOption::Settlement => "settlement",
            RuleOption::MatchEnd => "match_end",
            RuleOption::Target => "target",
            RuleOption::Table => "table",
            RuleOption::Rounds => "rounds",
            RuleOption::PublicTrain => "public_train",
            RuleOption::OpeningChain => "opening_chain",
            RuleOption::DoubleBlankPips => "double_blank_pips",
            RuleOption::HubArms => "hub_arms",
            RuleOption::Draw => "draw",
            RuleOption::Layout => "layout",
            RuleOption::InPlayScoring => "in_play_scoring",
            RuleOption::FirstLead => "first_lead",
            RuleOption::NextLead => "next_lead",
            RuleOption::Trick(option) => option.name(),
        }
    }
}

impl Rules {
    /// Number of sides (scoring units) with `players` seats.
    #[must_use]
    pub const fn sides(&self, players: u8) -> u8 {
        if self.partnerships { 2 } else { players }
    }

    /// Whether doubles lie crosswise and count both halves at an end: only in
    /// games with in-play scoring (docs/rules.md, "What every game shares").
    #[must_use]
    pub const fn doubles_crosswise(&self) -> bool {
        !matches!(self.in_play_scoring, InPlayScoring::None)
    }

    /// The parts of the rules that shape the layout.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        Geometry {
            connect: self.connect,
            layout: self.layout,
            crosswise: self.doubles_crosswise(),
        }
    }

    /// Every tile of the set these rules play with.
    #[must_use]
    pub const fn tile_set(&self) -> TileSet {
        TileSet::full(self.max_pip)
    }

    /// Checks that the options are in range and can be played together by
    /// `players` seats.
    ///
    /// # Errors
    /// The first option out of range or at odds with another (or with
    /// `players`).
    pub fn validate(&self, players: u8) -> Result<(), RulesError> {
        if self.table == TableKind::Tricks || self.tricks.is_some() {
            return self.check_tricks(players);
        }
        self.check_table(players)?;
        self.check_set_and_seats(players)?;
        self.check_connection()?;
        self.check_settlement()?;
        self.check_bonuses()?;
        self.check_match_end()
    }

    /// The most seats the table seats: four at a line, eight at trains.
    #[must_use]
    pub const fn max_players(&self) -> u8 {
        match self.table {
            TableKind::Line => MAX_PLAYERS,
            TableKind::Trains | TableKind::ChickenFoot => MAX_TRAIN_PLAYERS,
            TableKind::Tricks => MAX_TRICK_PLAYERS as u8,
        }
    }

    /// The rules of a trick game played with `options` to `target`: Texas
    /// 42 in partnerships, Moon each for himself; every option of the
    /// placing games at the one value a trick game has for it (the
    /// double-six set, seven tiles a seat, nothing drawn, the first shaker
    /// by lot and the shake passing left, a match to `target`).
    #[must_use]
    pub const fn tricks(options: TrickOptions, target: u32) -> Rules {
        Rules {
            max_pip: 6,
            partnerships: !options.is_moon(),
            hand_size: 7,
            draw: DrawRule::None,
            boneyard_reserve: 0,
            connect: Connect::Equal,
            layout: LayoutRule::TwoEnds,
            in_play_scoring: InPlayScoring::None,
            first_lead: LeadRule::Lot,
            next_lead: NextLeadRule::Rotate,
            settlement: Settlement::WinnerTakesPips,
            hand_rounding: HandRounding::None,
            hand_scale: HandScale::Face,
            blocked_own: BlockedOwnPips::Ignored,
            count_partner: false,
            capicua_bonus: 0,
            pass_bonus: 0,
            closing_wins: false,
            match_end: MatchEnd::ReachTarget,
            target,
            table: TableKind::Tricks,
            rounds: 0,
            public_train: false,
            opening_chain: false,
            double_blank_pips: 0,
            hub_arms: 0,
            tricks: Some(options),
        }
    }

    /// A trick table and its options go together; the options are ones
    /// the rule book plays together (each refusal naming the option);
    /// Texas 42 seats 4 and Moon 3; the target is from 1 to
    /// [`MAX_TARGET`]; and every option of the placing games is left at
    /// its one value at a trick game ([`Rules::tricks`]), so that none is
    /// set without effect.
    fn check_tricks(&self, players: u8) -> Result<(), RulesError> {
        let options = match (self.table, self.tricks) {
            (TableKind::Tricks, Some(options)) => options,
            (TableKind::Tricks, None) => {
                return Err(RulesError::new(
                    RuleOption::Table,
                    "a trick table needs its options (all_pass, play_out, scoring, ...)",
                ));
            }
            (_, Some(_)) => {
                return Err(RulesError::new(
                    RuleOption::Table,
                    "the options of a trick game (all_pass, play_out, scoring, ...) need table tricks",
                ));
            }
            (_, None) => return Ok(()),
        };
        options
            .check()
            .map_err(|error| RulesError::new(RuleOption::Trick(error.option), error.message))?;
        let (game, seats) = if options.is_moon() {
            ("Moon", 3)
        } else {
            ("Texas 42", 4)
        };
        if players != seats {
            return Err(RulesError::new(
                RuleOption::Players,
                format!("{players} players: {game} seats {seats}"),
            ));
        }
        if !(1..=MAX_TARGET).contains(&self.target) {
            return Err(RulesError::new(
                RuleOption::Target,
                format!(
                    "{}: a trick game's target is from 1 to {MAX_TARGET}",
                    self.target
                ),
            ));
        }
        let fixed = Rules::tricks(options, self.target);
        let differs = [
            (RuleOption::MaxPip, self.max_pip != fixed.max_pip),
            (
                RuleOption::Partnerships,
                self.partnerships != fixed.partnerships,
            ),
            (RuleOption::HandSize, self.hand_size != fixed.hand_size),
            (
                RuleOption::Draw,
                self.draw != fixed.draw || self.boneyard_reserve != fixed.boneyard_reserve,
            ),
            (RuleOption::Connect, self.connect != fixed.connect),
            (RuleOption::Layout, self.layout != fixed.layout),
            (
                RuleOption::InPlayScoring,
                self.in_play_scoring != fixed.in_play_scoring,
            ),
            (RuleOption::FirstLead, self.first_lead != fixed.first_lead),
            (RuleOption::NextLead, self.next_lead != fixed.next_lead),
            (
                RuleOption::Settlement,
                self.settlement != fixed.settlement || self.hand_rounding != fixed.hand_rounding,
            ),
            (RuleOption::HandScale, self.hand_scale != fixed.hand_scale),
            (
                RuleOption::BlockedOwn,
                self.blocked_own != fixed.blocked_own,
            ),
            (
                RuleOption::CountPartner,
                self.count_partner != fixed.count_partner,
            ),
            (
                RuleOption::CapicuaBonus,
                self.capicua_bonus != fixed.capicua_bonus,
            ),
            (RuleOption::PassBonus, self.pass_bonus != fixed.pass_bonus),
            (
                RuleOption::ClosingWins,
                self.closing_wins != fixed.closing_wins,
            ),
            (RuleOption::MatchEnd, self.match_end != fixed.match_end),
            (RuleOption::Rounds, self.rounds != fixed.rounds),
            (
                RuleOption::PublicTrain,
                self.public_train != fixed.public_train,
            ),
            (
                RuleOption::OpeningChain,
                self.opening_chain != fixed.opening_chain,
            ),
            (
                RuleOption::DoubleBlankPips,
                self.double_blank_pips != fixed.double_blank_pips,
            ),
            (RuleOption::HubArms, self.hub_arms != fixed.hub_arms),
        ];
        match differs.into_iter().find(|&(_, differs)| differs) {
            Some((option, _)) => Err(RulesError::new(
                option,
                format!(
                    "{game} is played with the double-six set, 7 tiles a seat, {} and nothing placed: leave {} unset",
                    if options.is_moon() {
                        "each seat for itself"
                    } else {
                        "in partnerships"
                    },
                    option.name()
                ),
            )),
            None => Ok(()),
        }
    }

    /// The options of a train table (or a chicken foot) are set only there,
    /// and such a table is played as its rule book says: each seat for
    /// itself, one tile a turn (draw one, then place it or pass), penalty
    /// scores over a number of rounds, the starter by lot and then the next
    /// seat.
    fn check_table(&self, players: u8) -> Result<(), RulesError> {
        let refuse = |option, message: &str| Err(RulesError::new(option, message));
        match self.table {
            TableKind::ChickenFoot if self.public_train => {
                return refuse(
                    RuleOption::PublicTrain,
                    "a chicken foot has no trains: the Mexican train needs table trains",
                );
            }
            TableKind::ChickenFoot if self.opening_chain => {
                return refuse(
                    RuleOption::OpeningChain,
                    "a chicken foot has no trains of one's own to lay a chain on (table trains)",
                );
            }
            TableKind::ChickenFoot if !matches!(self.hub_arms, 4 | 6) => {
                return Err(RulesError::new(
                    RuleOption::HubArms,
                    format!(
                        "{}: the hub of a chicken foot takes 4 arms, or 6 (double chicken foot)",
                        self.hub_arms
                    ),
                ));
            }
            TableKind::Line | TableKind::Trains if self.hub_arms != 0 => {
                return refuse(
                    RuleOption::HubArms,
                    "hub arms are a chicken foot's (table chicken_foot)",
                );
            }
            _ => {}
        }
        if self.table == TableKind::Line {
            return if self.rounds != 0 {
                refuse(
                    RuleOption::Rounds,
                    "rounds are played at a train table (table trains); a line game is played to a target",
                )
            } else if self.public_train {
                refuse(
                    RuleOption::PublicTrain,
                    "the Mexican train needs a train table (table trains)",
                )
            } else if self.opening_chain {
                refuse(
                    RuleOption::OpeningChain,
                    "an opening chain is laid on a seat's own train: it needs a train table (table trains)",
                )
            } else if self.double_blank_pips != 0 {
                refuse(
                    RuleOption::DoubleBlankPips,
                    "0-0 counts apart only at a train table (table trains)",
                )
            } else if self.match_end == MatchEnd::Rounds {
                refuse(
                    RuleOption::MatchEnd,
                    "a match of rounds needs a train table (table trains)",
                )
            } else {
                Ok(())
            };
        }
        if self.partnerships {
            return refuse(
                RuleOption::Partnerships,
                "at a train table each seat plays for itself",
            );
        }
        if self.layout != LayoutRule::TwoEnds {
            return refuse(
                RuleOption::Layout,
                "a train table has no spinner: trains grow from the hub (set layout two_ends)",
            );
        }
        if self.connect != Connect::Equal {
            return refuse(
                RuleOption::Connect,
                "trains connect equal numbers (set connect equal)",
            );
        }
        if self.in_play_scoring != InPlayScoring::None {
            return refuse(
                RuleOption::InPlayScoring,
                "a train table has no ends total: nothing scores during play (set in_play_scoring none)",
            );
        }
        if self.closing_wins {
            return refuse(
                RuleOption::ClosingWins,
                "closing is a line's: a train table has no two ends to close",
            );
        }
        if self.draw != DrawRule::OneThenPass || self.boneyard_reserve != 0 {
            return refuse(
                RuleOption::Draw,
                "at a train table a seat that cannot place draws one tile, then places it or passes (set draw one_then_pass, boneyard_reserve 0)",
            );
        }
        if self.first_lead != LeadRule::Lot {
            return refuse(
                RuleOption::FirstLead,
                "at a train table the first round's starter is drawn by lot (set first_lead lot)",
            );
        }
        if self.next_lead != NextLeadRule::Rotate {
            return refuse(
                RuleOption::NextLead,
                "at a train table each round is started by the seat after the last round's starter (set next_lead rotate)",
            );
        }
        if self.settlement != Settlement::PenaltyOwnPips {
            return refuse(
                RuleOption::Settlement,
                "at a train table each seat adds the pips left in its hand (set settlement penalty_own_pips)",
            );
        }
        if self.match_end != MatchEnd::Rounds || self.target != 0 {
            return refuse(
                RuleOption::MatchEnd,
                "a train table plays a number of rounds, lowest score winning (set match_end rounds, target 0)",
            );
        }
        if self.rounds == 0 || u16::from(self.rounds) > u16::from(self.max_pip) + 1 {
            return Err(RulesError::new(
                RuleOption::Rounds,
                format!(
                    "{} rounds: a double-{} set has hubs for 1 to {} rounds",
                    self.rounds,
                    self.max_pip,
                    u16::from(self.max_pip) + 1
                ),
            ));
        }
        if self.double_blank_pips > MAX_BONUS {
            return Err(RulesError::new(
                RuleOption::DoubleBlankPips,
                format!(
                    "{}: 0-0 may count at most {MAX_BONUS}",
                    self.double_blank_pips
                ),
            ));
        }
        if !(MIN_PLAYERS..=MAX_TRAIN_PLAYERS).contains(&players) {
            return Err(RulesError::new(
                RuleOption::Players,
                format!(
                    "{players} players: a train table seats {MIN_PLAYERS} to {MAX_TRAIN_PLAYERS}"
                ),
            ));
        }
        Ok(())
    }

    /// The set exists and deals the seats' hands (and the reserve).
    fn check_set_and_seats(&self, players: u8) -> Result<(), RulesError> {
        let max = self.max_players();
        if !(MIN_PLAYERS..=max).contains(&players) {
            return Err(RulesError::new(
                RuleOption::Players,
                format!("{players} players: the engine seats {MIN_PLAYERS} to {max}"),
            ));
        }
        if !matches!(self.max_pip, 6 | 9 | 12) {
            return Err(RulesError::new(
                RuleOption::MaxPip,
                format!(
                    "{}: the sets are double-6, double-9 and double-12",
                    self.max_pip
                ),
            ));
        }
        if self.partnerships && players != 4 {
            return Err(RulesError::new(
                RuleOption::Partnerships,
                format!("partnerships need 4 players, not {players}"),
            ));
        }
        if self.hand_size == 0 {
            return Err(RulesError::new(
                RuleOption::HandSize,
                "each seat must be dealt at least one tile",
            ));
        }
        // A hub (trains, a chicken foot) is taken out of the set before
        // the deal.
        let tiles = self.tile_set().len() - u32::from(self.table != TableKind::Line);
        let needed =
            u32::from(self.hand_size) * u32::from(players) + u32::from(self.boneyard_reserve);
        if needed > tiles {
            return Err(RulesError::new(
                RuleOption::HandSize,
                format!(
                    "{players} hands of {} plus a reserve of {} need {needed} tiles; the set has {tiles}",
                    self.hand_size, self.boneyard_reserve
                ),
            ));
        }
        Ok(())
    }

    /// Matador connections and closing are played only where they are defined.
    fn check_connection(&self) -> Result<(), RulesError> {
        if self.connect == Connect::SumToSevenWithMatadors {
            if self.max_pip != 6 {
                return Err(RulesError::new(
                    RuleOption::Connect,
                    "matadors (halves adding up to 7) are defined for the double-six set only",
                ));
            }
            if self.layout != LayoutRule::TwoEnds {
                return Err(RulesError::new(
                    RuleOption::Connect,
                    "matador connections are played with two ends, not a spinner",
                ));
            }
            if self.in_play_scoring != InPlayScoring::None {
                return Err(RulesError::new(
                    RuleOption::Connect,
                    "matador connections have no in-play scoring (crossed matadors have no count)",
                ));
            }
        }
        if self.closing_wins
            && (self.layout != LayoutRule::TwoEnds || self.connect != Connect::Equal)
        {
            return Err(RulesError::new(
                RuleOption::ClosingWins,
                "closing matches a tile to exactly two open ends of equal connection",
            ));
        }
        Ok(())
    }

    /// Divided points come from rounded pips.
    fn check_settlement(&self) -> Result<(), RulesError> {
        if self.hand_rounding == HandRounding::None && self.hand_scale != HandScale::Face {
            return Err(RulesError::new(
                RuleOption::HandScale,
                "dividing needs rounded pips: set hand_rounding to per_opponent or total",
            ));
        }
        if self.blocked_own == BlockedOwnPips::Raw && self.hand_scale != HandScale::Face {
            return Err(RulesError::new(
                RuleOption::BlockedOwn,
                "raw pips cannot be subtracted from divided points: use rounded or ignored",
            ));
        }
        if self.count_partner && !self.partnerships {
            return Err(RulesError::new(
                RuleOption::CountPartner,
                "crediting the partner's pips needs partnerships (count_partner true with partnerships false)",
            ));
        }
        if self.count_partner && self.settlement != Settlement::WinnerTakesPips {
            return Err(RulesError::new(
                RuleOption::CountPartner,
                "crediting the partner's pips needs settlement winner_takes_pips",
            ));
        }
        if self.settlement == Settlement::SubtractOwnRounded
            && self.in_play_scoring == InPlayScoring::None
        {
            // Every hand would only take points away: no side could ever
            // reach the target.
            return Err(RulesError::new(
                RuleOption::Settlement,
                "subtract_own_rounded only takes points away: it needs in_play_scoring for a side to reach the target",
            ));
        }
        Ok(())
    }

    /// Bonuses are points won in a match played to a target, and a
    /// capicúa needs two ends a tile can match.
    fn check_bonuses(&self) -> Result<(), RulesError> {
        for (option, points) in [
            (RuleOption::CapicuaBonus, self.capicua_bonus),
            (RuleOption::PassBonus, self.pass_bonus),
        ] {
            if points == 0 {
                continue;
            }
            if points > MAX_BONUS {
                return Err(RulesError::new(
                    option,
                    format!("{points} points: a bonus is worth at most {MAX_BONUS}"),
                ));
            }
            if self.settlement == Settlement::PenaltyOwnPips {
                return Err(RulesError::new(
                    option,
                    "a bonus is points won, and with penalty scores (lowest is best) points are lost",
                ));
            }
            if self.single_hand() {
                return Err(RulesError::new(
                    option,
                    "a bonus counts toward a target: a single-hand match has none",
                ));
            }
        }
        if self.capicua_bonus != 0
            && (self.layout != LayoutRule::TwoEnds || self.connect != Connect::Equal)
        {
            return Err(RulesError::new(
                RuleOption::CapicuaBonus,
                "a capicúa is a tile matching two open ends: it needs layout two_ends and connect equal",
            ));
        }
        Ok(())
    }

    /// The match end fits the scores and the target.
    fn check_match_end(&self) -> Result<(), RulesError> {
        let penalties = self.settlement == Settlement::PenaltyOwnPips;
        if penalties
            && !matches!(
                self.match_end,
                MatchEnd::LoseAtTarget | MatchEnd::SingleHand | MatchEnd::Rounds
            )
        {
            return Err(RulesError::new(
                RuleOption::MatchEnd,
                "with penalty scores (lowest is best) the match ends by lose_at_target or a single hand",
            ));
        }
        if self.match_end == MatchEnd::ExactTarget && self.settlement != Settlement::WinnerTakesOne
        {
            // Larger steps may never land on the target exactly (fives at
            // face value can never make 61), and the match would not end.
            return Err(RulesError::new(
                RuleOption::MatchEnd,
                "exact_target needs settlement winner_takes_one, so that a side can always close the gap a point at a time",
            ));
        }
        if self.match_end == MatchEnd::LoseAtTarget && !penalties {
            return Err(RulesError::new(
                RuleOption::MatchEnd,
                "lose_at_target needs penalty scores (settlement penalty_own_pips)",
            ));
        }
        match (self.match_end, self.target) {
            (MatchEnd::SingleHand | MatchEnd::Rounds, 0) => {}
            (MatchEnd::SingleHand, _) => {
                return Err(RulesError::new(
                    RuleOption::Target,
                    "a single-hand match has no target: set target to 0 or choose another match_end",
                ));
            }
            (_, 0) => {
                return Err(RulesError::new(
                    RuleOption::Target,
                    "a match played to a target needs a target above 0",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// Whether scores can go below 0 under these rules.
    #[must_use]
    pub const fn scores_can_be_negative(&self) -> bool {
        match self.tricks {
            // (A Moon bidder set loses the bid.)
            Some(options) => options.is_moon(),
            None => matches!(self.settlement, Settlement::SubtractOwnRounded),
        }
    }

    /// Whether the lowest score stands best: under penalty scores (a hand's
    /// pips count against the seat that held them) a side wants fewer
    /// points, else more.
    #[must_use]
    pub const fn lowest_score_wins(&self) -> bool {
        matches!(self.settlement, Settlement::PenaltyOwnPips)
    }

    /// Whether the match is a single hand.
    #[must_use]
    pub const fn single_hand(&self) -> bool {
        matches!(self.match_end, MatchEnd::SingleHand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;

    fn muggins(players: u8) -> Rules {
        preset("muggins")
            .expect("muggins exists")
            .rules(players, None)
    }

    #[test]
    fn presets_are_valid() {
        for players in 2..=4 {
            assert_eq!(muggins(players).validate(players), Ok(()));
        }
    }

    #[test]
    fn refuses_unplayable_combinations() {
        let mut rules = muggins(3);
        rules.partnerships = true;
        assert_eq!(
            rules.validate(3).map_err(|e| e.option),
            Err(RuleOption::Partnerships)
        );

        let mut rules = muggins(4);
        rules.hand_size = 8;
        assert_eq!(
            rules.validate(4).map_err(|e| e.option),
            Err(RuleOption::HandSize)
        );

        // A hub is out of the set before the deal: double-six less 6-6
        // leaves 27 tiles, too few for seven hands of four.
        for id in ["mexican_train", "chicken_foot"] {
            let mut rules = crate::rules::presets::preset(id)
                .expect("a preset")
                .rules(7, None);
            rules.max_pip = 6;
            rules.rounds = 7;
            rules.hand_size = 4;
            assert_eq!(
                rules.validate(7).map_err(|e| e.option),
                Err(RuleOption::HandSize),
                "{id}"
            );
            rules.hand_size = 3;
            assert_eq!(rules.validate(7), Ok(()), "{id}");
        }

        let mut rules = muggins(2);
        rules.match_end = MatchEnd::SingleHand;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::Target)
        );
        rules.target = 0;
        assert_eq!(rules.validate(2), Ok(()));

        let mut rules = muggins(2);
        rules.connect = Connect::SumToSevenWithMatadors;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::Connect)
        );

        let mut rules = muggins(2);
        rules.hand_rounding = HandRounding::None;
        rules.hand_scale = HandScale::Fifths;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::HandScale)
        );

        let mut rules = muggins(2);
        rules.match_end = MatchEnd::LoseAtTarget;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::MatchEnd)
        );

        let mut rules = muggins(2);
        rules.target = 0;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::Target)
        );

        let mut rules = muggins(2);
        rules.max_pip = 7;
        assert_eq!(
            rules.validate(2).map_err(|e| e.option),
            Err(RuleOption::MaxPip)
        );

        assert_eq!(
            muggins(2).validate(5).map_err(|e| e.option),
            Err(RuleOption::Players)
        );
    }
}
