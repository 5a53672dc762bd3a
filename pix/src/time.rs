//! Timestamps as the APIs show them: ISO 8601 in UTC with milliseconds.

use pixgate_policy_logic::calendar::Day;

/// `2026-11-22T01:36:38.123Z` for a Unix time in milliseconds.
pub fn iso8601(ms: i64) -> String {
    let day = Day(ms.div_euclid(86_400_000));
    let in_day = ms.rem_euclid(86_400_000);
    let (h, m, s, milli) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    format!("{day}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// Reads an RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, `T` and `Z` in either
/// case) or a bare `YYYY-MM-DD` (midnight UTC) into Unix milliseconds; `None` for anything
/// else.
pub fn parse_iso8601(text: &str) -> Option<i64> {
    let (date, time) = match text.split_once(['T', 't']) {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let (time, offset_ms) = match time {
        None => (None, 0),
        Some(t) => {
            if let Some(t) = t.strip_suffix(['Z', 'z']) {
                (Some(t), 0)
            } else {
                let at = t.rfind(['+', '-'])?;
                let (t, offset) = t.split_at(at);
                let sign = if offset.starts_with('-') { -1 } else { 1 };
                let (h, m) = offset[1..].split_once(':')?;
                let two = |p: &str, max: i64| -> Option<i64> {
                    let ok = p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit());
                    ok.then(|| p.parse().ok()).flatten().filter(|v| *v <= max)
                };
                (
                    Some(t),
                    sign * (two(h, 23)? * 3_600_000 + two(m, 59)? * 60_000),
                )
            }
        }
    };
    let day = Day::parse(date)?;
    let mut ms = day.0 * 86_400_000;
    if let Some(time) = time {
        let (hms, frac) = match time.split_once('.') {
            Some((hms, frac)) => (hms, Some(frac)),
            None => (time, None),
        };
        let mut parts = hms.split(':');
        let mut field = |max: i64| -> Option<i64> {
            let p = parts.next()?;
            if p.len() != 2 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let v: i64 = p.parse().ok()?;
            (v <= max).then_some(v)
        };
        let (h, m, s) = (field(23)?, field(59)?, field(59)?);
        if parts.next().is_some() {
            return None;
        }
        ms += h * 3_600_000 + m * 60_000 + s * 1000;
        if let Some(frac) = frac {
            if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let digits = format!("{frac:0<3}");
            ms += digits[..3].parse::<i64>().ok()?;
        }
    }
    Some(ms - offset_ms)
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
        for bad in [
            "",
            "2026-11-19T15:00:00",
            "2026-13-01",
            "2026-11-19T24:00:00Z",
            "x",
        ] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
    }
}
