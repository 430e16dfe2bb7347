//! Wall-clock time as text: Unix milliseconds as an ISO 8601 UTC timestamp, the form the
//! decision log writes and GitHub Copilot CLI's payloads carry, without a date-time crate.

/// Unix milliseconds as `YYYY-MM-DDTHH:MM:SS.fffZ` (civil date from days since 1970-01-01,
/// Howard Hinnant's algorithm).
pub fn iso_of_ms(ms: u64) -> String {
    let secs = i64::try_from(ms / 1000).unwrap_or(i64::MAX / 2);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_read_as_a_utc_timestamp() {
        assert_eq!(iso_of_ms(1_796_150_718_325), "2026-12-01T18:45:18.325Z");
        assert_eq!(iso_of_ms(0), "1970-01-01T00:00:00.000Z");
    }
}
