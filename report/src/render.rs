//! How the CLI shows a replay report and a shadow comparison: text tables for a terminal and,
//! for a replay, a self-contained HTML page (inline CSS and SVG, no script, nothing fetched)
//! with a chart of the provider distribution before and after.
//!
//! Every name in a report (store, provider, gateway, payment intent, error message) comes from
//! the instance's data, so the HTML escapes each one.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Deserialize;

use pixgate_domain::{NO_PROVIDER, Outcome};

use crate::{Change, ReplayReport};

/// The admin API's running comparison of a shadow candidate with the active version.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowComparison {
    store: String,
    step: String,
    candidate: Option<String>,
    active: Option<String>,
    since: Option<String>,
    charges: u64,
    unchanged: u64,
    changed: u64,
    errors: u64,
    #[serde(default)]
    changes_by_kind: BTreeMap<Change, u64>,
    #[serde(default)]
    errors_by_kind: BTreeMap<String, u64>,
    #[serde(default)]
    recent: Vec<ShadowChange>,
    /// Absent from an instance older than these fields: shown as no change.
    #[serde(default)]
    fee_delta_centavos: i64,
    #[serde(default)]
    net_delta_centavos: i64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShadowChange {
    payment_intent_id: String,
    at: String,
    kinds: Vec<Change>,
    before: Outcome,
    after: Outcome,
}

/// Columns of text aligned for a terminal.
#[derive(Debug)]
pub struct Table {
    /// The header first, when there is one.
    rows: Vec<Vec<String>>,
    numeric: Vec<bool>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Self {
            rows: vec![header.iter().map(|h| h.to_string()).collect()],
            numeric: vec![false; header.len()],
        }
    }

    /// A table without a header, e.g. of names and values.
    pub fn plain(columns: usize) -> Self {
        Self {
            rows: Vec::new(),
            numeric: vec![false; columns],
        }
    }

    /// Right-aligns these columns.
    pub fn numeric(mut self, columns: &[usize]) -> Self {
        for &c in columns {
            self.numeric[c] = true;
        }
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Indented by two spaces, two spaces between columns, one line per row.
    pub fn render(&self) -> String {
        let columns = self.numeric.len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r.get(c).map_or(0, |cell| cell.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::from(" ");
            for (c, width) in widths.iter().enumerate() {
                let cell = row.get(c).map_or("", String::as_str);
                let pad = width - cell.chars().count();
                line.push(' ');
                if self.numeric[c] {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// `1234567` as `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A count difference with its sign: `+30`, `-30`, `0`.
fn delta(after: u64, before: u64) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Greater => format!("+{}", count(after - before)),
        std::cmp::Ordering::Less => format!("-{}", count(before - after)),
        std::cmp::Ordering::Equal => "0".to_owned(),
    }
}

/// Centavos as reais: `R$ 12.34`, `-R$ 0.05`.
fn brl(centavos: i64) -> String {
    let sign = if centavos < 0 { "-" } else { "" };
    let abs = centavos.unsigned_abs();
    format!("{sign}R$ {}.{:02}", count(abs / 100), abs % 100)
}

/// A money difference with its sign: `+R$ 12.34`, `-R$ 12.34`, `R$ 0.00`.
fn brl_delta(centavos: i64) -> String {
    if centavos > 0 {
        format!("+{}", brl(centavos))
    } else {
        brl(centavos)
    }
}

/// One outcome on one line: where the charge goes and at what fee, or why it goes nowhere.
fn outcome_brief(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Resolved {
            policy,
            gateway_alias,
            release_class,
            fee_centavos,
            ..
        } => format!(
            "{gateway_alias} {release_class} fee {} ({policy})",
            brl(i64::try_from(*fee_centavos).unwrap_or(i64::MAX))
        ),
        Outcome::Refused { step, code, .. } => format!("refused by {}: {code}", step.as_str()),
        Outcome::Failed { step, code, .. } => format!("failed in {}: {code}", step.as_str()),
    }
}

fn kinds(kinds: &[Change]) -> String {
    kinds.iter().map(|k| k.key()).collect::<Vec<_>>().join(",")
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    format!("{:.1} %", part as f64 * 100.0 / whole as f64)
}

/// Providers before and after, as rows `(provider, before, after)`; `(none)` last.
fn provider_rows(report: &ReplayReport) -> Vec<(String, u64, u64)> {
    let mut names: Vec<&String> = report
        .providers_before
        .keys()
        .chain(report.providers_after.keys())
        .collect();
    names.sort_by(|a, b| {
        (a.as_str() == NO_PROVIDER, a.as_str()).cmp(&(b.as_str() == NO_PROVIDER, b.as_str()))
    });
    names.dedup();
    names
        .into_iter()
        .map(|n| {
            let get = |m: &BTreeMap<String, u64>| m.get(n).copied().unwrap_or(0);
            (
                n.clone(),
                get(&report.providers_before),
                get(&report.providers_after),
            )
        })
        .collect()
}

fn window(since: Option<&str>, until: Option<&str>) -> String {
    match (since, until) {
        (None, None) => "all recorded charges".to_owned(),
        (Some(s), None) => format!("since {s}"),
        (None, Some(u)) => format!("until {u}"),
        (Some(s), Some(u)) => format!("{s} .. {u}"),
    }
}

/// The steps in chain order, then anything else the report names.
fn component_rows(components: &BTreeMap<String, String>) -> Vec<(&str, &str)> {
    let order = |step: &str| match step {
        "policy" => 0,
        "provider" => 1,
        "economics" => 2,
        _ => 3,
    };
    let mut rows: Vec<(&str, &str)> = components
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    rows.sort_by_key(|(k, _)| (order(k), *k));
    rows
}

fn rate(per_second: f64) -> String {
    if per_second.is_finite() && per_second >= 0.0 {
        count(per_second.round() as u64)
    } else {
        "-".to_owned()
    }
}

fn changes_table(by_kind: &BTreeMap<Change, u64>, whole: u64) -> Table {
    let mut table = Table::new(&["KIND", "CHARGES", "SHARE"]).numeric(&[1, 2]);
    for kind in Change::ALL {
        let n = by_kind.get(&kind).copied().unwrap_or(0);
        table.row(vec![kind.key().to_owned(), count(n), percent(n, whole)]);
    }
    table
}

fn errors_text(errors: &BTreeMap<String, u64>) -> String {
    if errors.values().all(|n| *n == 0) {
        return "  none\n".to_owned();
    }
    let mut table = Table::new(&["CODE", "CHARGES"]).numeric(&[1]);
    for (code, n) in errors {
        table.row(vec![code.clone(), count(*n)]);
    }
    table.render()
}

/// The replay report as text for a terminal.
pub fn text(report: &ReplayReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Replay of store {}", report.store);
    let mut head = Table::plain(2);
    for (step, version) in component_rows(&report.components) {
        head.row(vec![step.to_owned(), version.to_owned()]);
    }
    head.row(vec![
        "window".to_owned(),
        window(report.since.as_deref(), report.until.as_deref()),
    ]);
    head.row(vec![
        "took".to_owned(),
        format!(
            "{} ms ({} charges/s)",
            count(report.duration_ms),
            rate(report.charges_per_second)
        ),
    ]);
    out.push_str(&head.render());

    out.push('\n');
    let mut summary = Table::new(&["REPLAYED", "UNCHANGED", "CHANGED", "ERRORS", "UNREADABLE"])
        .numeric(&[0, 1, 2, 3, 4]);
    summary.row(vec![
        count(report.replayed),
        count(report.unchanged),
        format!(
            "{} ({})",
            count(report.changed),
            percent(report.changed, report.replayed)
        ),
        count(report.errors),
        count(report.unreadable),
    ]);
    out.push_str(&summary.render());

    out.push_str("\nChanges by kind\n");
    out.push_str(&changes_table(&report.changes_by_kind, report.replayed).render());

    out.push_str("\nProvider distribution\n");
    let mut providers = Table::new(&["PROVIDER", "BEFORE", "AFTER", "DELTA"]).numeric(&[1, 2, 3]);
    for (name, before, after) in provider_rows(report) {
        providers.row(vec![
            name,
            count(before),
            count(after),
            delta(after, before),
        ]);
    }
    out.push_str(&providers.render());

    out.push_str("\nMoney (resolved charges, after minus before)\n");
    let mut money = Table::plain(2).numeric(&[1]);
    money.row(vec![
        "fees".to_owned(),
        brl_delta(report.fee_delta_centavos),
    ]);
    money.row(vec!["net".to_owned(), brl_delta(report.net_delta_centavos)]);
    out.push_str(&money.render());

    out.push_str("\nErrors by kind\n");
    out.push_str(&errors_text(&report.errors_by_kind));

    let _ = writeln!(
        out,
        "\nFuel per charge (the steps replayed together)\n  p50  {}\n  p99  {}",
        count(report.fuel.p50),
        count(report.fuel.p99)
    );

    if !report.first_changed.is_empty() {
        let _ = writeln!(
            out,
            "\nFirst changed charges ({} of {})",
            report.first_changed.len(),
            count(report.changed)
        );
        let mut changed = Table::new(&["PAYMENT INTENT", "CREATED", "CHANGES", "BEFORE", "AFTER"]);
        for c in &report.first_changed {
            changed.row(vec![
                c.payment_intent_id.clone(),
                c.created_at.clone(),
                kinds(&c.kinds),
                outcome_brief(&c.before),
                format!("-> {}", outcome_brief(&c.after)),
            ]);
        }
        out.push_str(&changed.render());
    }
    out
}

/// A shadow comparison as text for a terminal.
pub fn shadow_text(c: &ShadowComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Shadow comparison of store {}, step {}",
        c.store, c.step
    );
    let mut head = Table::plain(2);
    head.row(vec![
        "active".to_owned(),
        c.active.clone().unwrap_or_else(|| "-".to_owned()),
    ]);
    head.row(vec![
        "candidate".to_owned(),
        c.candidate
            .clone()
            .unwrap_or_else(|| "none attached".to_owned()),
    ]);
    head.row(vec![
        "since".to_owned(),
        c.since.clone().unwrap_or_else(|| "-".to_owned()),
    ]);
    out.push_str(&head.render());

    out.push('\n');
    let mut summary =
        Table::new(&["CHARGES", "UNCHANGED", "CHANGED", "ERRORS"]).numeric(&[0, 1, 2, 3]);
    summary.row(vec![
        count(c.charges),
        count(c.unchanged),
        format!("{} ({})", count(c.changed), percent(c.changed, c.charges)),
        count(c.errors),
    ]);
    out.push_str(&summary.render());

    out.push_str("\nChanges by kind\n");
    out.push_str(&changes_table(&c.changes_by_kind, c.charges).render());

    out.push_str("\nMoney (charges both resolved, candidate minus active)\n");
    let mut money = Table::plain(2).numeric(&[1]);
    money.row(vec!["fees".to_owned(), brl_delta(c.fee_delta_centavos)]);
    money.row(vec!["net".to_owned(), brl_delta(c.net_delta_centavos)]);
    out.push_str(&money.render());

    out.push_str("\nErrors by kind\n");
    out.push_str(&errors_text(&c.errors_by_kind));

    if !c.recent.is_empty() {
        out.push_str("\nRecent changes\n");
        let mut recent = Table::new(&["PAYMENT INTENT", "AT", "CHANGES", "BEFORE", "AFTER"]);
        for r in &c.recent {
            recent.row(vec![
                r.payment_intent_id.clone(),
                r.at.clone(),
                kinds(&r.kinds),
                outcome_brief(&r.before),
                format!("-> {}", outcome_brief(&r.after)),
            ]);
        }
        out.push_str(&recent.render());
    }
    out
}

/// Text for HTML: element content and attribute values alike.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2933;margin:2rem auto;max-width:62rem;padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #e4e7eb;padding-bottom:.25rem}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.3rem .75rem;border-bottom:1px solid #e4e7eb;text-align:left;vertical-align:top}
th{font-weight:600;background:#f5f7fa}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.up{color:#0b6e4f}.down{color:#b42318}.muted{color:#616e7c}
.cards{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}.card{border:1px solid #e4e7eb;border-radius:6px;padding:.5rem 1rem;min-width:7rem}
.card b{display:block;font-size:1.4rem;font-variant-numeric:tabular-nums}
svg text{font:13px system-ui,sans-serif;fill:#1f2933}
";

const BEFORE_COLOUR: &str = "#9aa5b1";
const AFTER_COLOUR: &str = "#2563eb";

/// A `<td>` with a signed difference, coloured by its sign.
fn delta_cell(text: String, sign: i64) -> String {
    let class = match sign.signum() {
        1 => "n up",
        -1 => "n down",
        _ => "n",
    };
    format!("<td class=\"{class}\">{}</td>", esc(&text))
}

/// The HTML table of a header and rows of already-escaped cells.
fn html_table(out: &mut String, header: &[(&str, bool)], rows: &[Vec<String>]) {
    out.push_str("<table><thead><tr>");
    for (h, numeric) in header {
        let class = if *numeric { " class=\"n\"" } else { "" };
        let _ = write!(out, "<th{class}>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            out.push_str(cell);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
}

fn td(text: &str) -> String {
    format!("<td>{}</td>", esc(text))
}

fn td_n(text: &str) -> String {
    format!("<td class=\"n\">{}</td>", esc(text))
}

/// Horizontal bars, two per provider (before, after), on one scale.
fn provider_chart(rows: &[(String, u64, u64)]) -> String {
    const WIDTH: u64 = 760;
    const LABEL: u64 = 200;
    const BARS: u64 = 470;
    const BAR: u64 = 16;
    const ROW: u64 = 2 * BAR + 4 + 16;
    const TOP: u64 = 34;
    let height = TOP + ROW * rows.len() as u64 + 4;
    let max = rows
        .iter()
        .map(|(_, b, a)| (*b).max(*a))
        .max()
        .unwrap_or(0)
        .max(1);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"chart-title\">\
         <title id=\"chart-title\">Charges per provider before and after the replay</title>\
         <rect x=\"{LABEL}\" y=\"6\" width=\"12\" height=\"12\" fill=\"{BEFORE_COLOUR}\"/>\
         <text x=\"{}\" y=\"16\">before (as recorded)</text>\
         <rect x=\"{}\" y=\"6\" width=\"12\" height=\"12\" fill=\"{AFTER_COLOUR}\"/>\
         <text x=\"{}\" y=\"16\">after (replayed)</text>",
        LABEL + 18,
        LABEL + 180,
        LABEL + 198,
    );
    for (i, (name, before, after)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as u64;
        let shown: String = if name.chars().count() > 26 {
            name.chars().take(25).chain(['…']).collect()
        } else {
            name.clone()
        };
        let _ = write!(
            svg,
            "<g><title>{}: {} before, {} after</title>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            esc(name),
            count(*before),
            count(*after),
            LABEL - 10,
            y + BAR + 6,
            esc(&shown),
        );
        for (j, (value, colour)) in [(*before, BEFORE_COLOUR), (*after, AFTER_COLOUR)]
            .into_iter()
            .enumerate()
        {
            let bar_y = y + j as u64 * (BAR + 4);
            let width = bar_width(value, max, BARS);
            let _ = write!(
                svg,
                "<rect x=\"{LABEL}\" y=\"{bar_y}\" width=\"{width}\" height=\"{BAR}\" fill=\"{colour}\"/>\
                 <text x=\"{}\" y=\"{}\">{}</text>",
                LABEL + width + 6,
                bar_y + BAR - 3,
                count(value),
            );
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

/// The length of a bar for `value` on a scale where `max` fills `full`.
fn bar_width(value: u64, max: u64, full: u64) -> u64 {
    (u128::from(value) * u128::from(full) / u128::from(max.max(1))) as u64
}

/// The replay report as a self-contained HTML page.
pub fn html(report: &ReplayReport) -> String {
    let mut out = String::new();
    let title = format!("Replay of store {}", report.store);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title),
    );
    let _ = writeln!(
        out,
        "<p class=\"muted\">{}; {} charges replayed in {} ms ({} charges/s)</p>",
        esc(&window(report.since.as_deref(), report.until.as_deref())),
        count(report.replayed),
        count(report.duration_ms),
        rate(report.charges_per_second),
    );
    let components: Vec<Vec<String>> = component_rows(&report.components)
        .into_iter()
        .map(|(step, version)| vec![td(step), format!("<td><code>{}</code></td>", esc(version))])
        .collect();
    html_table(
        &mut out,
        &[("Step", false), ("Component", false)],
        &components,
    );

    out.push_str("<div class=\"cards\">");
    for (label, n) in [
        ("replayed", report.replayed),
        ("unchanged", report.unchanged),
        ("changed", report.changed),
        ("errors", report.errors),
        ("unreadable", report.unreadable),
    ] {
        let _ = write!(out, "<div class=\"card\"><b>{}</b>{label}</div>", count(n));
    }
    out.push_str("</div>\n");

    out.push_str("<h2>Provider distribution</h2>\n");
    let providers = provider_rows(report);
    out.push_str(&provider_chart(&providers));
    let rows: Vec<Vec<String>> = providers
        .iter()
        .map(|(name, before, after)| {
            vec![
                td(name),
                td_n(&count(*before)),
                td_n(&count(*after)),
                delta_cell(delta(*after, *before), *after as i64 - *before as i64),
            ]
        })
        .collect();
    html_table(
        &mut out,
        &[
            ("Provider", false),
            ("Before", true),
            ("After", true),
            ("Delta", true),
        ],
        &rows,
    );

    out.push_str("<h2>Changes by kind</h2>\n");
    let rows: Vec<Vec<String>> = Change::ALL
        .iter()
        .map(|kind| {
            let n = report.changes_by_kind.get(kind).copied().unwrap_or(0);
            vec![
                td(kind.key()),
                td_n(&count(n)),
                td_n(&percent(n, report.replayed)),
            ]
        })
        .collect();
    html_table(
        &mut out,
        &[("Kind", false), ("Charges", true), ("Share", true)],
        &rows,
    );

    out.push_str("<h2>Money</h2>\n<p class=\"muted\">Resolved charges, after minus before.</p>\n");
    let rows = vec![
        vec![
            td("fees"),
            delta_cell(
                brl_delta(report.fee_delta_centavos),
                report.fee_delta_centavos,
            ),
        ],
        vec![
            td("net"),
            delta_cell(
                brl_delta(report.net_delta_centavos),
                report.net_delta_centavos,
            ),
        ],
    ];
    html_table(&mut out, &[("", false), ("Delta", true)], &rows);

    out.push_str("<h2>Errors by kind</h2>\n");
    if report.errors_by_kind.values().all(|n| *n == 0) {
        out.push_str("<p>None.</p>\n");
    } else {
        let rows: Vec<Vec<String>> = report
            .errors_by_kind
            .iter()
            .map(|(code, n)| vec![td(code), td_n(&count(*n))])
            .collect();
        html_table(&mut out, &[("Code", false), ("Charges", true)], &rows);
    }

    out.push_str("<h2>Fuel per charge</h2>\n");
    let rows = vec![
        vec![td("p50"), td_n(&count(report.fuel.p50))],
        vec![td("p99"), td_n(&count(report.fuel.p99))],
    ];
    html_table(&mut out, &[("", false), ("Fuel", true)], &rows);

    if !report.first_changed.is_empty() {
        let _ = writeln!(
            out,
            "<h2>First changed charges</h2>\n<p class=\"muted\">{} of {} changed charges.</p>",
            report.first_changed.len(),
            count(report.changed)
        );
        let rows: Vec<Vec<String>> = report
            .first_changed
            .iter()
            .map(|c| {
                vec![
                    format!("<td><code>{}</code></td>", esc(&c.payment_intent_id)),
                    td(&c.created_at),
                    td(&kinds(&c.kinds)),
                    outcome_cell(&c.before),
                    outcome_cell(&c.after),
                ]
            })
            .collect();
        html_table(
            &mut out,
            &[
                ("Payment intent", false),
                ("Created", false),
                ("Changes", false),
                ("Before", false),
                ("After", false),
            ],
            &rows,
        );
    }
    out.push_str("</body></html>\n");
    out
}

/// An outcome in a cell; a refusal's or failure's message as its tooltip.
fn outcome_cell(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Resolved { .. } => td(&outcome_brief(outcome)),
        Outcome::Refused { message, .. } | Outcome::Failed { message, .. } => format!(
            "<td title=\"{}\">{}</td>",
            esc(message),
            esc(&outcome_brief(outcome))
        ),
    }
}

#[cfg(test)]
mod tests {
    use pixgate_domain::Step;

    use super::*;
    use crate::ChangedCharge;

    /// Whether a line of `text` has exactly these words.
    fn has_row(text: &str, words: &[&str]) -> bool {
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == words)
    }

    /// The contract's example answer of `POST /replays`, with outcomes filled in.
    fn contract_example() -> ReplayReport {
        serde_json::from_value(serde_json::json!({
            "store": "demo-store",
            "components": {"policy": "recorded", "provider": "3f".repeat(32), "economics": "recorded"},
            "since": null, "until": null,
            "replayed": 1000, "unchanged": 963, "changed": 37, "errors": 0, "unreadable": 0,
            "changesByKind": {"policy": 0, "provider": 30, "gateway": 37, "releaseClass": 5, "fee": 37, "net": 37, "refusal": 0},
            "providersBefore": {"sandbox-a": 600, "sandbox-b": 400},
            "providersAfter":  {"sandbox-a": 570, "sandbox-b": 430},
            "feeDeltaCentavos": 1234, "netDeltaCentavos": -1234,
            "errorsByKind": {"fuel_exhausted": 0},
            "fuel": {"p50": 95000, "p99": 120000},
            "firstChanged": [{
                "paymentIntentId": "pi_1", "createdAt": "2026-11-22T10:00:00.000Z",
                "kinds": ["gateway", "fee", "net"],
                "before": {"status": "resolved", "policy": "d0-first", "providerCode": "sandbox-b",
                           "gatewayAlias": "sandbox-b-d0", "releaseClass": "D0", "feeCentavos": 165,
                           "netCentavos": 12825, "settlementDate": "2026-11-23"},
                "after": {"status": "resolved", "policy": "d0-first", "providerCode": "sandbox-a",
                          "gatewayAlias": "sandbox-a-d0", "releaseClass": "D0", "feeCentavos": 181,
                          "netCentavos": 12809, "settlementDate": "2026-11-23"}
            }],
            "durationMs": 80, "chargesPerSecond": 12500.0
        }))
        .expect("the contract's example is a ReplayReport")
    }

    #[test]
    fn money_and_counts_read_as_people_write_them() {
        assert_eq!(brl(1234), "R$ 12.34");
        assert_eq!(brl(-5), "-R$ 0.05");
        assert_eq!(brl(123_456_789), "R$ 1,234,567.89");
        assert_eq!(brl(i64::MIN), "-R$ 92,233,720,368,547,758.08");
        assert_eq!(brl_delta(1234), "+R$ 12.34");
        assert_eq!(brl_delta(0), "R$ 0.00");
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(12_345_678), "12,345,678");
        assert_eq!(delta(570, 600), "-30");
        assert_eq!(delta(430, 400), "+30");
        assert_eq!(delta(5, 5), "0");
    }

    #[test]
    fn the_text_report_has_every_section() {
        let text = text(&contract_example());
        let lines: Vec<&str> = text.lines().collect();
        // The first line starting with `start` (the last one with `last`), split into words.
        let find = |start: &str, last: bool| {
            let mut matching = lines.iter().filter(|l| l.trim_start().starts_with(start));
            if last {
                matching.next_back()
            } else {
                matching.next()
            }
            .unwrap_or_else(|| panic!("no line starting with {start:?} in\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
        };
        let line = |start: &str| find(start, false);
        assert_eq!(lines[0], "Replay of store demo-store");
        // The steps in chain order.
        assert_eq!(line("policy")[1], "recorded");
        assert_eq!(line("provider")[1], "3f".repeat(32));
        assert_eq!(line("window")[1..], ["all", "recorded", "charges"]);
        assert_eq!(line("took")[1..], ["80", "ms", "(12,500", "charges/s)"]);
        assert_eq!(
            line("1,000"),
            ["1,000", "963", "37", "(3.7", "%)", "0", "0"]
        );
        assert_eq!(line("releaseClass"), ["releaseClass", "5", "0.5", "%"]);
        assert_eq!(line("sandbox-a"), ["sandbox-a", "600", "570", "-30"]);
        assert_eq!(line("sandbox-b"), ["sandbox-b", "400", "430", "+30"]);
        assert_eq!(line("fees"), ["fees", "+R$", "12.34"]);
        assert_eq!(find("net", true), ["net", "-R$", "12.34"]);
        assert_eq!(line("p50"), ["p50", "95,000"]);
        assert_eq!(line("p99"), ["p99", "120,000"]);
        assert!(text.contains("Errors by kind\n  none\n"), "{text}");
        assert!(text.contains("First changed charges (1 of 37)"), "{text}");
        assert_eq!(
            line("pi_1"),
            [
                "pi_1",
                "2026-11-22T10:00:00.000Z",
                "gateway,fee,net",
                "sandbox-b-d0",
                "D0",
                "fee",
                "R$",
                "1.65",
                "(d0-first)",
                "->",
                "sandbox-a-d0",
                "D0",
                "fee",
                "R$",
                "1.81",
                "(d0-first)"
            ]
        );
    }

    #[test]
    fn refusals_and_failures_count_as_no_provider_listed_last() {
        let mut report = contract_example();
        report.providers_after.insert(NO_PROVIDER.to_owned(), 7);
        report.errors_by_kind.insert("trapped".to_owned(), 7);
        report.first_changed[0].after = Outcome::Failed {
            step: Step::Policy,
            code: "trapped".into(),
            message: "odd amount".into(),
        };
        let text = text(&report);
        let providers: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "Provider distribution")
            .skip(2)
            .take(3)
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(providers, ["sandbox-a", "sandbox-b", "(none)"]);
        assert!(has_row(&text, &["(none)", "0", "7", "+7"]), "{text}");
        assert!(has_row(&text, &["trapped", "7"]), "{text}");
        assert!(text.contains("-> failed in policy: trapped"), "{text}");
    }

    #[test]
    fn an_empty_replay_renders_without_dividing_by_zero() {
        let report = ReplayReport {
            store: "s".into(),
            components: BTreeMap::new(),
            since: Some("2026-01-01T00:00:00Z".into()),
            until: None,
            replayed: 0,
            unchanged: 0,
            changed: 0,
            errors: 0,
            unreadable: 0,
            changes_by_kind: BTreeMap::new(),
            providers_before: BTreeMap::new(),
            providers_after: BTreeMap::new(),
            fee_delta_centavos: 0,
            net_delta_centavos: 0,
            errors_by_kind: BTreeMap::new(),
            fuel: Default::default(),
            first_changed: Vec::new(),
            duration_ms: 0,
            charges_per_second: f64::NAN,
        };
        let text = text(&report);
        assert!(text.contains("since 2026-01-01T00:00:00Z"), "{text}");
        assert!(text.contains("(- charges/s)"), "{text}");
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
        let html = html(&report);
        assert!(!html.contains("NaN") && !html.contains("inf"), "{html}");
        assert!(html.contains("<svg"));
    }

    #[test]
    fn the_html_report_escapes_every_name_from_the_data() {
        let hostile = "<script>alert(\"x\")</script>&'";
        let mut report = contract_example();
        report.store = format!("</title>{hostile}");
        report
            .providers_after
            .insert("\"><img src=x onerror=alert(1)>".to_owned(), 3);
        report.components.insert("provider".into(), hostile.into());
        report.first_changed.push(ChangedCharge {
            payment_intent_id: hostile.into(),
            created_at: hostile.into(),
            kinds: vec![Change::Refusal],
            before: report.first_changed[0].before.clone(),
            after: Outcome::Refused {
                step: Step::Policy,
                code: hostile.into(),
                message: "\" onmouseover=\"alert(1)".into(),
            },
        });
        let html = html(&report);
        for raw in [
            "<script",
            "<img",
            "store </title>",
            "\" onmouseover",
            "onerror=alert(1)>",
        ] {
            assert!(!html.contains(raw), "{raw} unescaped in\n{html}");
        }
        assert!(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"));
        assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("title=\"&quot; onmouseover=&quot;alert(1)\""));
    }

    #[test]
    fn the_html_report_stands_alone() {
        let html = html(&contract_example());
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        // Nothing to fetch and nothing to run: the only URL is the SVG namespace's name.
        assert_eq!(html.matches("http").count(), 2, "{html}"); // http-equiv, the namespace
        assert!(html.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        for absent in ["<script", "<link", "src=", "href=", "url(", "@import"] {
            assert!(!html.contains(absent), "{absent} in\n{html}");
        }
        assert!(html.contains("default-src 'none'"));
        // One bar per provider and side, on one scale: 600 fills the chart, 400 two thirds.
        assert_eq!(html.matches("<svg").count(), 1);
        assert_eq!(html.matches(&format!("fill=\"{AFTER_COLOUR}\"")).count(), 3);
        assert!(html.contains("width=\"470\" height=\"16\" fill=\"#9aa5b1\""));
        assert!(html.contains(&format!("width=\"{}\"", bar_width(400, 600, 470))));
        assert_eq!(bar_width(400, 600, 470), 313);
        assert_eq!(bar_width(0, 0, 470), 0);
        // The tables carry the same figures as the text.
        assert!(html.contains("<td class=\"n down\">-30</td>"));
        assert!(html.contains("<td class=\"n up\">+R$ 12.34</td>"));
        assert!(html.contains("<td class=\"n\">95,000</td>"));
        assert!(html.contains("sandbox-b-d0 D0 fee R$ 1.65 (d0-first)"));
    }

    #[test]
    fn a_shadow_comparison_reads_and_renders() {
        let comparison: ShadowComparison = serde_json::from_value(serde_json::json!({
            "store": "demo-store", "step": "provider", "candidate": "ab".repeat(32), "active": "bundled",
            "since": "2026-11-22T10:00:00.000Z", "charges": 120, "unchanged": 100, "changed": 18, "errors": 2,
            "changesByKind": {"policy": 0, "provider": 10, "gateway": 18, "releaseClass": 3, "fee": 18, "net": 18, "refusal": 0},
            "errorsByKind": {"trapped": 2}, "feeDeltaCentavos": 1234, "netDeltaCentavos": -1234,
            "recent": [{"paymentIntentId": "pi_9", "at": "2026-11-22T10:01:00.000Z", "kinds": ["refusal"],
                        "before": {"status": "resolved", "policy": "d0-first", "providerCode": "sandbox-b",
                                   "gatewayAlias": "sandbox-b-d0", "releaseClass": "D0", "feeCentavos": 165,
                                   "netCentavos": 12825, "settlementDate": "2026-11-23"},
                        "after": {"status": "failed", "step": "provider", "code": "trapped", "message": "boom"}}]
        }))
        .unwrap();
        let text = shadow_text(&comparison);
        assert!(text.starts_with("Shadow comparison of store demo-store, step provider\n"));
        assert!(has_row(&text, &["candidate", &"ab".repeat(32)]), "{text}");
        assert!(
            has_row(&text, &["120", "100", "18", "(15.0", "%)", "2"]),
            "{text}"
        );
        assert!(has_row(&text, &["gateway", "18", "15.0", "%"]), "{text}");
        assert!(has_row(&text, &["trapped", "2"]), "{text}");
        assert!(has_row(&text, &["fees", "+R$", "12.34"]), "{text}");
        assert!(has_row(&text, &["net", "-R$", "12.34"]), "{text}");
        assert!(text.contains("-> failed in provider: trapped"), "{text}");
    }
}
