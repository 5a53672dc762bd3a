//! Timestamps as the APIs show them: ISO 8601 (RFC 3339) in UTC with milliseconds. Formatted
//! and read by the `time` crate, which the tree already builds for certificates (rcgen).

use time::format_description::BorrowedFormatItem;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime};

const WITH_MILLIS: &[BorrowedFormatItem<'_>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// `2026-11-22T01:36:38.123Z` for a Unix time in milliseconds; a time beyond the years
/// -9999 to 9999 shows as the nearest of them.
pub fn iso8601(ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap_or_else(
        |_| {
            if ms < 0 {
                PrimitiveDateTime::MIN.assume_utc()
            } else {
                PrimitiveDateTime::MAX.assume_utc()
            }
        },
    );
    at.format(WITH_MILLIS).unwrap_or_default()
}

/// Reads an RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, `T` and `Z` in either
/// case) or a bare `YYYY-MM-DD` (midnight UTC) into Unix milliseconds (a finer fraction is
/// cut, never rounded); `None` for anything else.
pub fn parse_iso8601(text: &str) -> Option<i64> {
    let at = match OffsetDateTime::parse(text, &Rfc3339) {
        Ok(at) => at,
        Err(_) => Date::parse(text, format_description!("[year]-[month]-[day]"))
            .ok()?
            .midnight()
            .assume_utc(),
    };
    i64::try_from(at.unix_timestamp_nanos().div_euclid(1_000_000)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_is_utc_with_milliseconds() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_795_100_400_123), "2026-11-19T15:00:00.123Z");
    }

    #[test]
    fn what_is_written_reads_back() {
        for ms in [0, 1_795_100_400_123, 1_795_100_400_000] {
            assert_eq!(parse_iso8601(&iso8601(ms)), Some(ms));
        }
        assert_eq!(parse_iso8601("2026-11-19"), Some(1_795_046_400_000));
        assert_eq!(
            parse_iso8601("2026-11-19T15:00:00Z"),
            Some(1_795_100_400_000)
        );
        // Offsets, either case, and a fraction finer than milliseconds (cut).
        assert_eq!(
            parse_iso8601("2026-11-19t12:00:00.123999-03:00"),
            Some(1_795_100_400_123)
        );
        assert_eq!(parse_iso8601("1969-12-31T23:59:59.9995z"), Some(-1));
        // RFC 3339 lets a space stand for the `T` (its section 5.6 note).
        assert_eq!(
            parse_iso8601("2026-11-19 15:00:00Z"),
            Some(1_795_100_400_000)
        );
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(iso8601(i64::MAX), "9999-12-31T23:59:59.999Z");
        for bad in [
            "",
            "2026-11-19T15:00:00",
            "2026-13-01",
            "2026-11-19T24:00:00Z",
            "x",
            "2026-11-19T15:00:00.Z",
            "2026-11-19T15:00:00+24:00",
        ] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
    }
}
