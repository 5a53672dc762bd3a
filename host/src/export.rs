//! The CSV exports finance opens in a spreadsheet (settlements, reconciliation findings): RFC
//! 4180 quoting by the `csv` crate, a header line of the JSON field names, amounts as
//! decimals with two places, and text that a spreadsheet would run as a formula defused.

use serde::Serialize;

use crate::internal::Internal;

/// `rows` as CSV after a `header` line (there even when there are no rows); each row's fields
/// in the header's order.
pub fn csv<T: Serialize>(
    header: &[&str],
    rows: impl IntoIterator<Item = T>,
) -> Result<String, Internal> {
    let mut out = ::csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    out.write_record(header)
        .map_err(|e| Internal::caused("a CSV header", e))?;
    for row in rows {
        out.serialize(row)
            .map_err(|e| Internal::caused("a CSV row", e))?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| Internal::caused("the CSV export", e.into_error()))?;
    String::from_utf8(bytes).map_err(|e| Internal::caused("the CSV export", e))
}

/// Centavos as `-12.34`: exact, and what a spreadsheet reads as a number.
pub fn decimal(centavos: i64) -> String {
    let sign = if centavos < 0 { "-" } else { "" };
    let abs = centavos.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Text as a cell no spreadsheet runs: one starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'` (OWASP's advice for CSV injection). Text written by a
/// PSP (a payer's message, an id) reaches these exports.
pub fn text(value: &str) -> String {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{value}"),
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_have_two_places_and_their_sign() {
        assert_eq!(decimal(0), "0.00");
        assert_eq!(decimal(5), "0.05");
        assert_eq!(decimal(123_456), "1234.56");
        assert_eq!(decimal(-700), "-7.00");
        assert_eq!(decimal(i64::MIN), "-92233720368547758.08");
    }

    #[test]
    fn formulas_are_defused_and_quotes_escaped() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Row {
            end_to_end_id: String,
            detail: String,
        }
        let rows = [Row {
            end_to_end_id: text("=HYPERLINK(\"x\")"),
            detail: text("paid, \"twice\"\nreally"),
        }];
        assert_eq!(
            csv(&["endToEndId", "detail"], rows).unwrap(),
            "endToEndId,detail\n\"'=HYPERLINK(\"\"x\"\")\",\"paid, \"\"twice\"\"\nreally\"\n"
        );
        assert_eq!(csv::<Row>(&["a", "b"], []).unwrap(), "a,b\n");
        assert_eq!(text("-1"), "'-1");
        assert_eq!(text("E2E"), "E2E");
    }
}
