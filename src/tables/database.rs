//! The tables' database as an operator names it (`--tables-db`): a plain
//! path is a SQLite file, created if missing; a `sqlite:` address without
//! a mode is opened to create its file too; `postgres://` is PostgreSQL.
//! A database that cannot be used is explained with the flag and the fix,
//! before the server announces itself.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// The flag (and, as `PIPS_TABLES_DB`, the variable) that names it.
pub const FLAG: &str = "--tables-db";

/// What a path may hold as it is in a `sqlite://` address: the rest is
/// percent-encoded (SQLite's driver decodes it), so that a `?`, a `#` or
/// a `%` in a file's name is part of the name.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'.')
    .remove(b'-')
    .remove(b'_')
    .remove(b'~');

/// The database address `--tables-db text` names, or `None` for `none`.
///
/// # Errors
/// An empty value, or an address of a database pips does not keep tables
/// on, in words naming the flag and what it takes.
pub fn address(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    let takes = "give a SQLite file (pips-tables.db), a PostgreSQL address \
                 (postgres://user@host/db), or none to keep no tables";
    if text.is_empty() {
        return Err(format!("{FLAG} is empty: {takes}"));
    }
    if text == "none" {
        return Ok(None);
    }
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        return Ok(Some(text.to_owned()));
    }
    if let Some(rest) = text.strip_prefix("sqlite:") {
        let memory = rest.contains(":memory:") || rest.contains("mode=");
        return Ok(Some(if memory {
            text.to_owned()
        } else if rest.contains('?') {
            format!("{text}&mode=rwc")
        } else {
            format!("{text}?mode=rwc")
        }));
    }
    if let Some((scheme, _)) = text.split_once("://") {
        return Err(format!(
            "{FLAG} {}: pips keeps tables on SQLite or PostgreSQL, not {}; {takes}",
            shown(text),
            shown(scheme)
        ));
    }
    Ok(Some(format!(
        "sqlite://{}?mode=rwc",
        utf8_percent_encode(text, PATH)
    )))
}

/// Why the database at `address` cannot be used, from `error`, with the
/// flag and what to do about it.
#[must_use]
pub fn explain(address: &str, error: &sqlx::Error) -> String {
    let named = format!("{FLAG} {}", shown(address));
    let sqlite = address.starts_with("sqlite:");
    let code = match error {
        sqlx::Error::Database(database) => database.code().map(|code| code.into_owned()),
        _ => None,
    };
    // (SQLite's primary result codes: the low byte of an extended one.)
    let primary = code
        .as_deref()
        .and_then(|code| code.parse::<u32>().ok())
        .map(|code| code & 0xff);
    let fix = match (sqlite, primary, error) {
        (true, Some(14), _) => {
            "SQLite cannot open or create the file: check that its directory exists and \
             that this server may write there, or name another file"
        }
        (true, Some(13), _) => "The disk is full: free space, or name a file on another disk",
        (true, Some(8), _) => {
            "The file or its directory is read-only to this server: make it writable, \
             or name another file"
        }
        (true, Some(26), _) => {
            "The file is not a SQLite database: name a new file (it is created) or a \
             tables database pips made"
        }
        (true, Some(5 | 6), _) => {
            "The file is locked by another process: stop it, or name another file"
        }
        (false, _, sqlx::Error::Io(_) | sqlx::Error::Tls(_)) => {
            "PostgreSQL cannot be reached there: check the host and port, and that it runs"
        }
        (false, _, sqlx::Error::Database(_)) => {
            "PostgreSQL refused: check the user, password and database name, and that the \
             user may create tables there"
        }
        (_, _, sqlx::Error::Configuration(_)) => {
            "The address is malformed: give a file path, sqlite://file, or \
             postgres://user@host/db"
        }
        (_, _, sqlx::Error::Migrate(_)) => {
            "Its tables are from a newer pips, or were changed by hand: run that pips, or \
             name a new database"
        }
        _ => "Fix the address, or start with --tables-db none to keep no tables",
    };
    format!("{named}: {error}. {fix}")
}

/// `text` as an error message quotes it: without a password, and cut
/// short.
fn shown(text: &str) -> String {
    // postgres://user:password@host/db: the password is left out.
    let hidden = match (text.find("://"), text.rfind('@')) {
        (Some(start), Some(at)) if at > start => {
            let user = &text[start + 3..at];
            match user.split_once(':') {
                Some((name, _)) => format!("{}{name}:…{}", &text[..start + 3], &text[at..]),
                None => text.to_owned(),
            }
        }
        _ => text.to_owned(),
    };
    crate::service::error::quote(&hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_path_is_a_sqlite_file_created_if_missing() {
        assert_eq!(
            address("pips.db"),
            Ok(Some("sqlite://pips.db?mode=rwc".to_owned()))
        );
        assert_eq!(
            address("/var/lib/pips/tables.db"),
            Ok(Some("sqlite:///var/lib/pips/tables.db?mode=rwc".to_owned()))
        );
        assert_eq!(
            address("my tables?#1%.db"),
            Ok(Some(
                "sqlite://my%20tables%3F%231%25.db?mode=rwc".to_owned()
            ))
        );
    }

    #[test]
    fn a_sqlite_address_without_a_mode_creates_its_file() {
        for (given, opened) in [
            ("sqlite://x.db", "sqlite://x.db?mode=rwc"),
            (
                "sqlite://x.db?cache=shared",
                "sqlite://x.db?cache=shared&mode=rwc",
            ),
            ("sqlite://x.db?mode=ro", "sqlite://x.db?mode=ro"),
            ("sqlite::memory:", "sqlite::memory:"),
        ] {
            assert_eq!(address(given), Ok(Some(opened.to_owned())), "{given}");
        }
    }

    #[test]
    fn none_postgres_and_what_is_neither() {
        assert_eq!(address(" none "), Ok(None));
        assert_eq!(
            address("postgres://pips@db/pips"),
            Ok(Some("postgres://pips@db/pips".to_owned()))
        );
        let error = address("mysql://root:secret@db/pips").expect_err("not kept there");
        assert!(error.starts_with("--tables-db "), "{error}");
        assert!(error.contains("not \"mysql\""), "{error}");
        assert!(!error.contains("secret"), "{error}");
        assert!(address("").expect_err("empty").contains("none"));
    }
}
