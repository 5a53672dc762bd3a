//! The rules of a recurring charge's life, as pure functions of the charge and the date: which
//! attempt is open, whether a retry may be asked for a date, whether a rejected attempt ends
//! the charge, whether the receiver may still cancel it, and which cycle of its recurrence a
//! due date falls in. The handlers ([`super::cobr`], [`super::control`]) apply them under the
//! simulator's lock.
//!
//! Sources (API Pix 2.9.0 `openapi.yaml`): the `CobROperacaoInvalida` violations of `POST
//! /cobr/{txid}/retentativa/{data}` (lines 302-310) and of `PATCH /cobr/{txid}` (line 300),
//! the cycle rule of `PUT /cobr` (line 296), the attempt codes that reject the charge (line
//! 7118), and `PERMITE_3R_7D`: at most 3 retries, within 7 days after the due date.

use pixgate_domain::due::Date;
use pixgate_domain::due::calendar::is_business_day;
use pixgate_pix::apipix::{
    CobrCompleta, CobrStatus, Periodicidade, PoliticaRetentativa, TentativaStatus,
    attempt_rejection_ends_cobr,
};

/// Retries `PERMITE_3R_7D` allows after the first attempt.
pub(crate) const MAX_RETRIES: usize = 3;
/// Days after the due date within which they may fall.
pub(crate) const RETRY_WINDOW_DAYS: i64 = 7;

/// `tipo` of the attempt scheduled with the charge.
pub(crate) const SCHEDULED: &str = "AGND";
/// `tipo` of an attempt asked with `/retentativa`.
pub(crate) const NEW_ATTEMPT: &str = "NTAG";

/// The attempt still waiting to be settled (`SOLICITADA` or `AGENDADA`), by index.
pub(crate) fn open_attempt(cobr: &CobrCompleta) -> Option<usize> {
    cobr.tentativas.iter().position(|t| {
        matches!(
            t.status,
            TentativaStatus::Solicitada | TentativaStatus::Agendada
        )
    })
}

/// Retries asked so far: the attempts after the scheduled one.
pub(crate) fn retries_used(cobr: &CobrCompleta) -> usize {
    cobr.tentativas
        .iter()
        .filter(|t| t.tipo.as_deref() != Some(SCHEDULED))
        .count()
}

fn due_date(cobr: &CobrCompleta) -> Option<Date> {
    Date::parse(&cobr.calendario.data_de_vencimento)
}

/// The date of the latest attempt (the simulator writes them in order).
fn last_attempt_date(cobr: &CobrCompleta) -> Option<Date> {
    cobr.tentativas
        .iter()
        .filter_map(|t| Date::parse(&t.data_liquidacao))
        .max()
}

fn allows_retries(cobr: &CobrCompleta) -> bool {
    cobr.politica_retentativa == Some(PoliticaRetentativa::Permite3R7D)
}

/// Why `POST /cobr/{txid}/retentativa/{data}` is refused for `data`, as a violation's reason;
/// `None` when a retry on `data` may be scheduled. `today` is Brasília's.
pub(crate) fn retry_refusal(cobr: &CobrCompleta, data: Date, today: Date) -> Option<String> {
    if !allows_retries(cobr) {
        return Some(
            "A política configurada na recorrência não permite retentativa de cobrança.".to_owned(),
        );
    }
    if cobr.status != CobrStatus::Ativa {
        return Some(format!(
            "A cobrança recorrente está {}, não ATIVA: não há o que tentar de novo.",
            super::name(cobr.status)
        ));
    }
    if open_attempt(cobr).is_some() {
        return Some("Existe uma tentativa com status SOLICITADA ou AGENDADA.".to_owned());
    }
    if data <= today {
        return Some("O parâmetro data não corresponde a uma data futura.".to_owned());
    }
    if let Some(last) = last_attempt_date(cobr)
        && data <= last
    {
        return Some(format!(
            "O parâmetro data não é posterior à data da última tentativa ({last})."
        ));
    }
    if retries_used(cobr) >= MAX_RETRIES {
        return Some(format!(
            "As {MAX_RETRIES} retentativas que a política PERMITE_3R_7D permite já foram \
             solicitadas."
        ));
    }
    if let Some(due) = due_date(cobr)
        && data > due.add_days(RETRY_WINDOW_DAYS)
    {
        return Some(format!(
            "O parâmetro data é posterior a {}, {RETRY_WINDOW_DAYS} dias após o vencimento \
             ({due}), como a política PERMITE_3R_7D permite.",
            due.add_days(RETRY_WINDOW_DAYS)
        ));
    }
    None
}

/// Whether an attempt rejected with `codigo` rejects the charge for good: the code ends it,
/// the recurrence allows no retry, the retries are used up, or no date is left for one (the
/// last attempt fell on the last day of the window).
pub(crate) fn rejection_ends_cobr(cobr: &CobrCompleta, codigo: &str) -> bool {
    let window_over = match (due_date(cobr), last_attempt_date(cobr)) {
        (Some(due), Some(last)) => last >= due.add_days(RETRY_WINDOW_DAYS),
        _ => false,
    };
    attempt_rejection_ends_cobr(codigo)
        || !allows_retries(cobr)
        || retries_used(cobr) >= MAX_RETRIES
        || window_over
}

/// Why the receiver may not cancel the charge (`PATCH /cobr/{txid}`) today; `None` when it
/// may: it is `ATIVA` (or `CRIADA`), no attempt has been settled or rejected, and today is
/// before the first attempt's date.
pub(crate) fn cancel_refusal(cobr: &CobrCompleta, today: Date) -> Option<String> {
    if !matches!(cobr.status, CobrStatus::Ativa | CobrStatus::Criada) {
        return Some(format!(
            "A cobrança recorrente está {}: não pode mais ser cancelada.",
            super::name(cobr.status)
        ));
    }
    let resolved = cobr.tentativas.iter().any(|t| {
        matches!(
            t.status,
            TentativaStatus::Paga | TentativaStatus::Rejeitada | TentativaStatus::Expirada
        )
    });
    let first = cobr
        .tentativas
        .first()
        .and_then(|t| Date::parse(&t.data_liquidacao));
    if resolved || first.is_some_and(|first| today >= first) {
        return Some(
            "Não é possível cancelar uma cobrança em uma data igual ou maior que a data \
             prevista da primeira tentativa de liquidação."
                .to_owned(),
        );
    }
    None
}

/// Whole months from `from` to `to` (a month counts once its day of the month is reached).
fn months_between(from: Date, to: Date) -> i64 {
    let (y0, m0, d0) = from.ymd();
    let (y1, m1, d1) = to.ymd();
    let months = (i64::from(y1) - i64::from(y0)) * 12 + i64::from(m1) - i64::from(m0);
    if d1 < d0 { months - 1 } else { months }
}

/// The cycle of a recurrence starting on `inicial` that `date` falls in: 0 for the first
/// period, negative before it. Two charges of one recurrence in the same cycle are one too
/// many (unless the other was rejected or cancelled).
pub(crate) fn cycle(periodicidade: Periodicidade, inicial: Date, date: Date) -> i64 {
    let per_months = |n: i64| months_between(inicial, date).div_euclid(n);
    match periodicidade {
        Periodicidade::Semanal => inicial.days_until(date).div_euclid(7),
        Periodicidade::Mensal => per_months(1),
        Periodicidade::Trimestral => per_months(3),
        Periodicidade::Semestral => per_months(6),
        Periodicidade::Anual => per_months(12),
    }
}

/// The first attempt's date: the due date, moved to the next business day when `ajuste` (the
/// national calendar; the payer's municipal holidays are not known here).
pub(crate) fn settlement_date(due: Date, ajuste: bool) -> Date {
    let mut day = due;
    while ajuste && !is_business_day(day) {
        day = day.add_days(1);
    }
    day
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_pix::apipix::{
        Amount, CalendarioCobr, Rejeicao, Tentativa, ValorCobr, attempt_rejection_ends_cobr,
    };

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    fn attempt(on: &str, tipo: &str, status: TentativaStatus) -> Tentativa {
        Tentativa {
            data_liquidacao: on.to_owned(),
            tipo: Some(tipo.to_owned()),
            status,
            end_to_end_id: None,
            rejeicao: (status == TentativaStatus::Rejeitada).then(|| Rejeicao {
                codigo: "AM04".to_owned(),
                descricao: None,
            }),
            atualizacao: vec![],
        }
    }

    /// A charge due 2026-03-10, allowing retries, with these attempts.
    fn cobr(tentativas: Vec<Tentativa>) -> CobrCompleta {
        CobrCompleta {
            txid: "a".repeat(32),
            id_rec: "RR8765432120260110AbCdEfGhIjK".to_owned(),
            info_adicional: None,
            calendario: CalendarioCobr {
                criacao: Some("2026-03-01".to_owned()),
                data_de_vencimento: "2026-03-10".to_owned(),
            },
            valor: ValorCobr {
                original: Amount::from_centavos(100).unwrap(),
            },
            status: CobrStatus::Ativa,
            politica_retentativa: Some(PoliticaRetentativa::Permite3R7D),
            ajuste_dia_util: Some(true),
            devedor: None,
            recebedor: None,
            tentativas,
            pix: vec![],
            encerramento: None,
            atualizacao: vec![],
        }
    }

    use TentativaStatus::*;

    #[test]
    fn a_retry_waits_for_the_open_attempt_and_comes_after_it() {
        let today = date("2026-03-11");
        let open = cobr(vec![attempt("2026-03-10", SCHEDULED, Agendada)]);
        assert!(
            retry_refusal(&open, date("2026-03-12"), today)
                .unwrap()
                .contains("SOLICITADA ou AGENDADA")
        );
        let failed = cobr(vec![attempt("2026-03-10", SCHEDULED, Rejeitada)]);
        assert_eq!(retry_refusal(&failed, date("2026-03-12"), today), None);
        // Not a future date; not after the last attempt.
        assert!(
            retry_refusal(&failed, today, today)
                .unwrap()
                .contains("data futura")
        );
        let early = cobr(vec![attempt("2026-03-13", SCHEDULED, Rejeitada)]);
        assert!(
            retry_refusal(&early, date("2026-03-12"), today)
                .unwrap()
                .contains("última tentativa")
        );
    }

    #[test]
    fn retries_stop_after_three_and_after_seven_days() {
        let today = date("2026-03-11");
        let failed = cobr(vec![attempt("2026-03-10", SCHEDULED, Rejeitada)]);
        // The window: due date + 7, inclusive.
        assert_eq!(retry_refusal(&failed, date("2026-03-17"), today), None);
        assert!(
            retry_refusal(&failed, date("2026-03-18"), today)
                .unwrap()
                .contains("7 dias")
        );
        let three = cobr(vec![
            attempt("2026-03-10", SCHEDULED, Rejeitada),
            attempt("2026-03-11", NEW_ATTEMPT, Rejeitada),
            attempt("2026-03-12", NEW_ATTEMPT, Rejeitada),
            attempt("2026-03-13", NEW_ATTEMPT, Rejeitada),
        ]);
        assert_eq!(retries_used(&three), 3);
        assert!(
            retry_refusal(&three, date("2026-03-14"), today)
                .unwrap()
                .contains("3 retentativas")
        );
        // And a rejection of the third retry ends the charge whatever its code.
        assert!(rejection_ends_cobr(&three, "AM04"));
        let two = cobr(three.tentativas[..3].to_vec());
        assert!(!rejection_ends_cobr(&two, "AM04"));
        // No date left in the window.
        let last_day = cobr(vec![
            attempt("2026-03-10", SCHEDULED, Rejeitada),
            attempt("2026-03-17", NEW_ATTEMPT, Rejeitada),
        ]);
        assert!(rejection_ends_cobr(&last_day, "AM04"));
    }

    #[test]
    fn terminal_codes_and_the_policy_end_the_charge() {
        let failed = cobr(vec![attempt("2026-03-10", SCHEDULED, Rejeitada)]);
        for code in [
            "AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09",
        ] {
            assert!(attempt_rejection_ends_cobr(code));
            assert!(rejection_ends_cobr(&failed, code), "{code}");
        }
        assert!(!rejection_ends_cobr(&failed, "AM04"));
        let mut strict = failed.clone();
        strict.politica_retentativa = Some(PoliticaRetentativa::NaoPermite);
        assert!(rejection_ends_cobr(&strict, "AM04"));
        assert!(
            retry_refusal(&strict, date("2026-03-12"), date("2026-03-11"))
                .unwrap()
                .contains("não permite retentativa")
        );
        let mut ended = failed;
        ended.status = CobrStatus::Rejeitada;
        assert!(
            retry_refusal(&ended, date("2026-03-12"), date("2026-03-11"))
                .unwrap()
                .contains("não ATIVA")
        );
    }

    #[test]
    fn the_receiver_cancels_only_before_the_first_attempt() {
        let scheduled = cobr(vec![attempt("2026-03-10", SCHEDULED, Agendada)]);
        assert_eq!(cancel_refusal(&scheduled, date("2026-03-09")), None);
        assert!(cancel_refusal(&scheduled, date("2026-03-10")).is_some());
        assert!(cancel_refusal(&scheduled, date("2026-03-11")).is_some());
        let failed = cobr(vec![attempt("2026-03-10", SCHEDULED, Rejeitada)]);
        assert!(cancel_refusal(&failed, date("2026-03-01")).is_some());
        let mut paid = scheduled;
        paid.status = CobrStatus::Concluida;
        assert!(cancel_refusal(&paid, date("2026-03-01")).is_some());
    }

    #[test]
    fn cycles_follow_the_periodicity() {
        let start = date("2026-01-31");
        assert_eq!(cycle(Periodicidade::Mensal, start, date("2026-01-31")), 0);
        assert_eq!(cycle(Periodicidade::Mensal, start, date("2026-02-27")), 0);
        assert_eq!(cycle(Periodicidade::Mensal, start, date("2026-03-01")), 1);
        assert_eq!(cycle(Periodicidade::Mensal, start, date("2026-01-30")), -1);
        assert_eq!(cycle(Periodicidade::Semanal, start, date("2026-02-06")), 0);
        assert_eq!(cycle(Periodicidade::Semanal, start, date("2026-02-07")), 1);
        assert_eq!(
            cycle(Periodicidade::Trimestral, start, date("2026-04-30")),
            0
        );
        assert_eq!(
            cycle(Periodicidade::Trimestral, start, date("2026-05-01")),
            1
        );
        assert_eq!(
            cycle(Periodicidade::Semestral, start, date("2026-07-31")),
            1
        );
        assert_eq!(cycle(Periodicidade::Anual, start, date("2026-12-31")), 0);
        assert_eq!(cycle(Periodicidade::Anual, start, date("2027-01-31")), 1);
    }

    #[test]
    fn a_due_date_on_a_holiday_moves_when_asked() {
        // 2026-04-21 is Tiradentes (a Tuesday); 2026-03-14 a Saturday.
        assert_eq!(
            settlement_date(date("2026-04-21"), true),
            date("2026-04-22")
        );
        assert_eq!(
            settlement_date(date("2026-03-14"), true),
            date("2026-03-16")
        );
        assert_eq!(
            settlement_date(date("2026-03-14"), false),
            date("2026-03-14")
        );
        assert_eq!(
            settlement_date(date("2026-03-10"), true),
            date("2026-03-10")
        );
    }

    #[test]
    fn the_open_attempt_is_the_waiting_one() {
        let c = cobr(vec![
            attempt("2026-03-10", SCHEDULED, Rejeitada),
            attempt("2026-03-11", NEW_ATTEMPT, Agendada),
        ]);
        assert_eq!(open_attempt(&c), Some(1));
        assert_eq!(open_attempt(&cobr(vec![])), None);
    }
}
