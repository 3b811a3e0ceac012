//! The playground's files (`web/`), built into the binary: the page at
//! `/`, its icon, and its code, styles and language catalogs under
//! `/web/`. Every file under `web/` is served (the build lists them), so
//! that adding a language is adding its catalog.

use axum::Router;
use axum::extract::Path;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::{HeaderMap, HeaderValue, StatusCode, header};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The routes of the playground's files.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|headers: HeaderMap| async move { serve("playground.html", &headers) }))
        .route("/favicon.svg", get(|headers: HeaderMap| async move { serve("favicon.svg", &headers) }))
        // (Where browsers look for an icon by default: an SVG all the same,
        // as browsers read the type from the header, not the name.)
        .route("/favicon.ico", get(|headers: HeaderMap| async move { serve("favicon.svg", &headers) }))
        .route(
            "/web/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }),
        )
        .route("/web/i18n/languages.json", get(languages))
}

/// The file `path` of `web/`: 404 when there is none; 304 when the
/// browser holds it already (its `If-None-Match` names the file's tag).
/// Browsers check again before each use (`no-cache`), so that a new
/// binary's page is never mixed with an old one's code.
fn serve(path: &str, headers: &HeaderMap) -> Response {
    let Some(&(_, content_type, tag, bytes)) = WEB_FILES.iter().find(|(name, ..)| *name == path)
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|held| held.trim() == tag || held.trim() == "*");
    let heads = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, HeaderValue::from_static(tag)),
        // Browsers take the type as given, never guessing another.
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, heads).into_response();
    }
    (heads, bytes).into_response()
}

/// The languages the playground speaks: the codes of the catalogs under
/// `web/i18n/`, as a JSON array (`["en", "es", …]`).
async fn languages() -> Response {
    let codes: Vec<&str> = language_codes().collect();
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        serde_json::to_string(&codes).unwrap_or_default(),
    )
        .into_response()
}

/// The codes of the language catalogs built in (`web/i18n/<code>.json`).
pub fn language_codes() -> impl Iterator<Item = &'static str> {
    WEB_FILES
        .iter()
        .filter_map(|(name, ..)| name.strip_prefix("i18n/")?.strip_suffix(".json"))
        .filter(|code| *code != "languages")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_its_code_and_the_languages_are_built_in() {
        assert!(
            WEB_FILES
                .iter()
                .any(|(name, ..)| *name == "playground.html")
        );
        assert!(WEB_FILES.iter().any(|(name, ..)| *name == "js/main.js"));
        assert!(language_codes().any(|code| code == "en"));
    }

    #[test]
    fn a_held_file_is_not_sent_again() {
        let (_, _, tag, _) = WEB_FILES[0];
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static(tag));
        assert_eq!(
            serve(WEB_FILES[0].0, &headers).status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            serve(WEB_FILES[0].0, &HeaderMap::new()).status(),
            StatusCode::OK
        );
        assert_eq!(
            serve("../Cargo.toml", &HeaderMap::new()).status(),
            StatusCode::NOT_FOUND
        );
    }
}
