//! A table's settings: its turn timer, what the computer does for a seat
//! whose time ran out, and the seed its matches are dealt from when the
//! creator gave one. Kept as the JSON of `TableSettings` (with the seed
//! beside its fields), which the server writes (never a client's text),
//! read back leniently: a setting a table was stored without is its
//! default.

use crate::proto::{self, ErrorReason};
use crate::service::ApiError;

/// The longest turn timer, in seconds: a day.
pub const MOST_TURN_SECONDS: u32 = 86_400;

/// How a table is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Seconds a person has for each move (0: no timer).
    pub turn_seconds: u32,
    /// Whether the computer plays one move only for a seat whose time ran
    /// out (else it plays the seat until its person comes back).
    pub one_move: bool,
    /// The seed the first match was dealt from, when the creator gave one
    /// (each rematch is dealt from the next); not shown to the seats, whose
    /// view of the settings is `TableSettings`.
    pub seed: Option<u64>,
}

/// The key the seed is stored under, beside `TableSettings`' fields.
const SEED_KEY: &str = "seed";

impl Settings {
    /// The settings a request asks for, checked.
    ///
    /// # Errors
    /// A timer over a day, or a rule that is none of `TimeoutRule`'s.
    pub fn from_request(settings: Option<&proto::TableSettings>) -> Result<Settings, ApiError> {
        Settings::checked(settings).map_err(|(field, message)| {
            ApiError::invalid(ErrorReason::InvalidRules, field, message)
        })
    }

    /// The settings, or the field at fault and why.
    fn checked(
        settings: Option<&proto::TableSettings>,
    ) -> Result<Settings, (&'static str, String)> {
        let Some(settings) = settings else {
            return Ok(Settings::default());
        };
        if settings.turn_seconds > MOST_TURN_SECONDS {
            return Err((
                "settings.turn_seconds",
                format!(
                    "a turn timer of {} s: at most {MOST_TURN_SECONDS} (a day); 0 for none",
                    settings.turn_seconds
                ),
            ));
        }
        let rule = proto::TimeoutRule::try_from(settings.on_timeout).map_err(|_| {
            (
                "settings.on_timeout",
                format!("{} is not a TimeoutRule", settings.on_timeout),
            )
        })?;
        Ok(Settings {
            turn_seconds: settings.turn_seconds,
            one_move: rule == proto::TimeoutRule::OneMove,
            seed: None,
        })
    }

    /// The settings as the wire shows them.
    #[must_use]
    pub fn to_proto(self) -> proto::TableSettings {
        let rule = if self.one_move {
            proto::TimeoutRule::OneMove
        } else {
            proto::TimeoutRule::TakeOver
        };
        proto::TableSettings {
            turn_seconds: self.turn_seconds,
            on_timeout: rule as i32,
        }
    }

    /// The settings as stored.
    #[must_use]
    pub fn to_json(self) -> String {
        let mut stored = serde_json::to_value(self.to_proto()).unwrap_or_default();
        if let (Some(seed), Some(fields)) = (self.seed, stored.as_object_mut()) {
            // As proto3 JSON writes a 64-bit number: a string.
            fields.insert(SEED_KEY.to_owned(), seed.to_string().into());
        }
        serde_json::to_string(&stored).unwrap_or_else(|_| "{}".to_owned())
    }

    /// The settings stored as `json` (a setting missing or unreadable: its
    /// default).
    #[must_use]
    pub fn from_json(json: &str) -> Settings {
        let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_str(json) else {
            return Settings::default();
        };
        let seed = fields
            .remove(SEED_KEY)
            .and_then(|seed| seed.as_str().and_then(|text| text.parse().ok()));
        let settings = serde_json::from_value::<proto::TableSettings>(fields.into())
            .ok()
            .and_then(|stored| Settings::checked(Some(&stored)).ok())
            .unwrap_or_default();
        Settings { seed, ..settings }
    }

    /// The seed the `match_no`-th match (from 1) is dealt from: the
    /// creator's seed for the first, the next for each rematch; `None`
    /// (drawn by the server) without one.
    #[must_use]
    pub fn match_seed(self, match_no: i64) -> Option<u64> {
        let after = u64::try_from(match_no.saturating_sub(1)).unwrap_or(0);
        self.seed.map(|seed| seed.wrapping_add(after))
    }

    /// A person's time for a move, in milliseconds, if a timer runs.
    #[must_use]
    pub fn turn_ms(self) -> Option<i64> {
        (self.turn_seconds > 0).then(|| i64::from(self.turn_seconds) * 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_and_read_back() {
        let asked = proto::TableSettings {
            turn_seconds: 30,
            on_timeout: proto::TimeoutRule::OneMove as i32,
        };
        let settings = Settings::from_request(Some(&asked)).expect("valid");
        assert_eq!(settings.to_proto(), asked);
        assert_eq!(Settings::from_json(&settings.to_json()), settings);
        assert_eq!(settings.turn_ms(), Some(30_000));
        assert_eq!(Settings::from_json("{}"), Settings::default());
        let seeded = Settings {
            seed: Some(u64::MAX),
            ..settings
        };
        assert_eq!(Settings::from_json(&seeded.to_json()), seeded);
        assert_eq!(seeded.match_seed(1), Some(u64::MAX));
        assert_eq!(seeded.match_seed(3), Some(1));
        assert_eq!(settings.match_seed(2), None);
        // A table stored before seeds: no seed, its timer kept.
        assert_eq!(
            Settings::from_json(r#"{"turnSeconds":30,"onTimeout":"TIMEOUT_RULE_ONE_MOVE"}"#),
            settings
        );
        assert_eq!(Settings::from_json("not json").turn_ms(), None);
        let unspecified = Settings::from_request(Some(&proto::TableSettings::default()));
        assert_eq!(unspecified.expect("valid"), Settings::default());
        for (bad, field) in [
            ((MOST_TURN_SECONDS + 1, 0), "settings.turn_seconds"),
            ((10, 9), "settings.on_timeout"),
        ] {
            let asked = proto::TableSettings {
                turn_seconds: bad.0,
                on_timeout: bad.1,
            };
            let error = Settings::from_request(Some(&asked)).expect_err("refused");
            assert_eq!(error.field, field);
        }
    }
}
