//! A table's settings: its turn timer and what the computer does for a
//! seat whose time ran out. Kept as the JSON of `TableSettings`, which the
//! server writes (never a client's text), read back leniently: a setting a
//! table was stored without is its default.

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
    /// out (else it plays the seat until its person acts again).
    pub one_move: bool,
}

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
        serde_json::to_string(&self.to_proto()).unwrap_or_else(|_| "{}".to_owned())
    }

    /// The settings stored as `json` (a setting missing or unreadable: its
    /// default).
    #[must_use]
    pub fn from_json(json: &str) -> Settings {
        serde_json::from_str::<proto::TableSettings>(json)
            .ok()
            .and_then(|stored| Settings::checked(Some(&stored)).ok())
            .unwrap_or_default()
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
