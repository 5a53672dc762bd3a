//! What a PSP's record of a charge means for its PaymentIntent (DESIGN.md section 10): the
//! one place the settlement rules live, for every kind of charge. A callback never settles a
//! charge by itself; the `GET` of the charge that follows it does, through [`verdict`].

use crate::psp::charge_kinds::ChargeRecord;
use pixgate_pix::apipix::{CobStatus, Pix};

/// Where a `PENDING` intent goes after a read of its charge at the PSP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Paid in full (an immediate charge: exactly its amount): `endToEndId` and when it was
    /// paid.
    Succeeded { end_to_end_id: String, paid_at: i64 },
    /// Removed at the PSP, or still unpaid past its expiry.
    Canceled { reason: CancelReason },
    /// Nothing final yet: read it again later.
    Pending,
    /// Concluded at the PSP without a pix that pays the charge (an immediate charge: its exact amount). A PSP following the
    /// standard does not accept another amount for a fixed-amount charge, so this needs a
    /// person: the intent stays `PENDING` (money may have moved, so it is never canceled
    /// automatically), and the anomaly is logged and counted.
    AmountMismatch { received_centavos: Vec<u64> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelReason {
    RemovedByReceiver,
    RemovedByPsp,
    Expired,
}

impl CancelReason {
    /// The `failure.code`-like reason kept with the transition, for the logs and the trace.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::RemovedByReceiver => "removed_by_receiver",
            Self::RemovedByPsp => "removed_by_psp",
            Self::Expired => "expired",
        }
    }
}

/// How long past its expiry an unpaid charge is still read as pending: a payment made at the
/// last second may still be on its way through the SPI, and the PSP's clock may run behind
/// pixgate's. Canceling is final, so it waits.
pub const EXPIRY_GRACE_MS: i64 = 5 * 60 * 1000;

/// The verdict on `charge`, read at `now` (Unix ms); `pays` says whether a pix pays it in
/// full (the charge kind's rule).
pub fn verdict(charge: &ChargeRecord, pays: impl Fn(&Pix) -> bool, now: i64) -> Verdict {
    match charge.status {
        CobStatus::Concluida => match charge.pix.iter().find(|p| pays(p)) {
            Some(pix) => Verdict::Succeeded {
                end_to_end_id: pix.end_to_end_id.clone(),
                paid_at: pix.horario.unix_ms(),
            },
            None => Verdict::AmountMismatch {
                received_centavos: charge.pix.iter().map(|p| p.valor.centavos()).collect(),
            },
        },
        CobStatus::RemovidaPeloUsuarioRecebedor => Verdict::Canceled {
            reason: CancelReason::RemovedByReceiver,
        },
        CobStatus::RemovidaPeloPsp => Verdict::Canceled {
            reason: CancelReason::RemovedByPsp,
        },
        CobStatus::Ativa => {
            if now >= charge.expires_at + EXPIRY_GRACE_MS {
                Verdict::Canceled {
                    reason: CancelReason::Expired,
                }
            } else {
                Verdict::Pending
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::psp::charge_kinds;
    use pixgate_domain::ChargeKind;
    use serde_json::json;

    fn cob(status: &str, pix: serde_json::Value) -> ChargeRecord {
        let answer = serde_json::to_vec(&json!({
            "calendario": {"criacao": "2026-11-23T12:00:00Z", "expiracao": 3600},
            "txid": "7978c0c97ea847e78e8849634473c1f1",
            "revisao": 0,
            "status": status,
            "valor": {"original": "129.90"},
            "chave": "pix@pixgate.test",
            "pix": pix,
        }))
        .unwrap();
        charge_kinds::resource(ChargeKind::Immediate)
            .unwrap()
            .read(&answer)
            .unwrap()
    }

    fn verdict(charge: &ChargeRecord, amount_centavos: u64, now: i64) -> Verdict {
        super::verdict(charge, |p| p.valor.centavos() == amount_centavos, now)
    }

    const CREATED: i64 = 1_795_435_200_000; // 2026-11-23T12:00:00Z

    fn pix(valor: &str) -> serde_json::Value {
        json!({"endToEndId": "E1234567820261123120512345678901", "valor": valor,
               "horario": "2026-11-23T12:05:00Z"})
    }

    #[test]
    fn concluded_with_the_amount_succeeds_with_its_end_to_end_id() {
        let v = verdict(&cob("CONCLUIDA", json!([pix("129.90")])), 12_990, CREATED);
        assert_eq!(
            v,
            Verdict::Succeeded {
                end_to_end_id: "E1234567820261123120512345678901".into(),
                paid_at: CREATED + 300_000
            }
        );
    }

    #[test]
    fn a_wrong_amount_never_succeeds() {
        let v = verdict(&cob("CONCLUIDA", json!([pix("12.99")])), 12_990, CREATED);
        assert_eq!(
            v,
            Verdict::AmountMismatch {
                received_centavos: vec![1299]
            }
        );
        let v = verdict(&cob("CONCLUIDA", json!([])), 12_990, CREATED);
        assert!(matches!(v, Verdict::AmountMismatch { .. }));
    }

    #[test]
    fn removal_cancels() {
        for (status, reason) in [
            (
                "REMOVIDA_PELO_USUARIO_RECEBEDOR",
                CancelReason::RemovedByReceiver,
            ),
            ("REMOVIDA_PELO_PSP", CancelReason::RemovedByPsp),
        ] {
            assert_eq!(
                verdict(&cob(status, json!([])), 12_990, CREATED),
                Verdict::Canceled { reason }
            );
        }
    }

    #[test]
    fn active_cancels_only_from_its_expiry_and_grace_on() {
        let active = cob("ATIVA", json!([]));
        let expiry = CREATED + 3_600_000;
        assert_eq!(verdict(&active, 12_990, expiry), Verdict::Pending);
        assert_eq!(
            verdict(&active, 12_990, expiry + EXPIRY_GRACE_MS - 1),
            Verdict::Pending
        );
        assert_eq!(
            verdict(&active, 12_990, expiry + EXPIRY_GRACE_MS),
            Verdict::Canceled {
                reason: CancelReason::Expired
            }
        );
    }
}
