//! Reading a store step's activation history: which versions it ran before the current one
//! (what a rollback and the kill switch fall back to), which of them a kill switch took
//! away, and when a version was active (where recorded traces may name it).
//!
//! Every rule here is a pure function of the history, newest first, as
//! [`sql::step_history`](crate::db::components::step_history) reads it.

use std::collections::HashSet;

use crate::db::components::{Activation, ActivationAction, BUNDLED};

/// The versions the step ran before `current`, most recent first, each once. A store starts
/// on the bundled component, so the list ends with `bundled` whenever the history is whole.
pub fn earlier_versions(history: &[Activation], current: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    history
        .iter()
        .map(|a| a.version.as_str())
        .chain(history.last().and_then(|a| a.previous_version.as_deref()))
        .filter(|v| *v != current && seen.insert(*v))
        .map(str::to_owned)
        .collect()
}

/// The versions a kill switch removed from the step.
fn removed_by_kill_switch(history: &[Activation]) -> HashSet<&str> {
    history
        .iter()
        .filter(|a| a.action == ActivationAction::KillSwitch)
        .filter_map(|a| a.previous_version.as_deref())
        .collect()
}

/// Where the kill switch sends a step that runs `current`: the most recent earlier version no
/// kill switch removed and that `exists`, else the bundled component. It never hands the step
/// back to a version it took away, so two broken versions cannot take turns.
pub fn kill_switch_target(
    history: &[Activation],
    current: &str,
    exists: impl Fn(&str) -> bool,
) -> String {
    let removed = removed_by_kill_switch(history);
    earlier_versions(history, current)
        .into_iter()
        .find(|v| v == BUNDLED || (!removed.contains(v.as_str()) && exists(v)))
        .unwrap_or_else(|| BUNDLED.to_owned())
}

/// The spans, in milliseconds `[from, to]`, in which the step ran `version`; a span still
/// open ends at `now`.
pub fn active_spans(history: &[Activation], version: &str, now: i64) -> Vec<(i64, i64)> {
    let mut spans = Vec::new();
    // Oldest first: each activation's version runs from its time to the next one's.
    let chronological: Vec<&Activation> = history.iter().rev().collect();
    if let Some(first) = chronological.first()
        && first.previous_version.as_deref() == Some(version)
    {
        spans.push((i64::MIN, first.created_at));
    }
    for (i, a) in chronological.iter().enumerate() {
        if a.version == version {
            let end = chronological.get(i + 1).map_or(now, |next| next.created_at);
            spans.push((a.created_at, end));
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    use pixgate_domain::Step;

    /// A history from `(action, version, previous)` entries, oldest first, one second apart.
    fn history(entries: &[(&str, &str, &str)]) -> Vec<Activation> {
        let mut rows: Vec<Activation> = entries
            .iter()
            .enumerate()
            .map(|(i, (action, version, previous))| Activation {
                id: format!("{i:04}"),
                store_id: "s".into(),
                step: Step::Policy,
                version: (*version).into(),
                previous_version: Some((*previous).into()),
                action: action.parse().unwrap(),
                reason: None,
                created_at: 1_000 * (i as i64 + 1),
            })
            .collect();
        rows.reverse();
        rows
    }

    #[test]
    fn earlier_versions_run_from_the_newest_back_to_bundled() {
        let h = history(&[
            ("activate", "a", BUNDLED),
            ("activate", "b", "a"),
            ("rollback", "a", "b"),
            ("activate", "c", "a"),
        ]);
        assert_eq!(earlier_versions(&h, "c"), ["a", "b", BUNDLED]);
        assert_eq!(earlier_versions(&[], BUNDLED), Vec::<String>::new());
    }

    #[test]
    fn the_kill_switch_never_returns_to_a_version_it_removed() {
        // F (traps) then M (runs out of fuel); the switch removes M, back to F; then F.
        let h = history(&[("activate", "f", BUNDLED), ("activate", "m", "f")]);
        assert_eq!(kill_switch_target(&h, "m", |_| true), "f");
        let h = history(&[
            ("activate", "f", BUNDLED),
            ("activate", "m", "f"),
            ("kill_switch", "f", "m"),
        ]);
        assert_eq!(kill_switch_target(&h, "f", |_| true), BUNDLED);
    }

    #[test]
    fn the_kill_switch_skips_deleted_versions_and_keeps_to_the_most_recent() {
        let h = history(&[
            ("activate", "a", BUNDLED),
            ("activate", "b", "a"),
            ("activate", "c", "b"),
        ]);
        assert_eq!(kill_switch_target(&h, "c", |v| v != "b"), "a");
        assert_eq!(kill_switch_target(&h, "c", |_| false), BUNDLED);
        // Bundled is a version like the others in the order: here it ran after `a`.
        let h = history(&[
            ("activate", "a", BUNDLED),
            ("rollback", BUNDLED, "a"),
            ("activate", "c", BUNDLED),
        ]);
        assert_eq!(kill_switch_target(&h, "c", |_| true), BUNDLED);
    }

    #[test]
    fn spans_cover_each_time_a_version_ran() {
        let h = history(&[
            ("activate", "a", BUNDLED),
            ("activate", "b", "a"),
            ("rollback", "a", "b"),
        ]);
        assert_eq!(
            active_spans(&h, "a", 9_999),
            [(1_000, 2_000), (3_000, 9_999)]
        );
        assert_eq!(active_spans(&h, "b", 9_999), [(2_000, 3_000)]);
        assert_eq!(active_spans(&h, BUNDLED, 9_999), [(i64::MIN, 1_000)]);
        assert!(active_spans(&h, "z", 9_999).is_empty());
    }
}
