//! What a PSP's record of a charge means for its PaymentIntent (DESIGN.md section 10): the
//! one place the settlement rules live. A callback never settles a charge by itself; the
//! `GET /cob/{txid}` read that follows it does, through [`verdict`].

use pixgate_pix::apipix::{CobCompleta, CobStatus};

/// Where a `PENDING` intent goes after a read of its charge at the PSP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Paid with exactly the charge's amount: `endToEndId` and when it was paid.
    Succeeded { end_to_end_id: String, paid_at: i64 },
    /// Removed at the PSP, or still unpaid past its expiry.
    Canceled { reason: CancelReason },
    /// Nothing final yet: read it again later.
    Pending,
    /// Concluded at the PSP without a pix of the charge's amount. A PSP following the
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

/// The verdict on `cob`, read at `now` (Unix ms), for a charge of `amount_centavos`.
pub fn verdict(cob: &CobCompleta, amount_centavos: u64, now: i64) -> Verdict {
    match cob.status {
        CobStatus::Concluida => {
            match cob
                .pix
                .iter()
                .find(|p| p.valor.centavos() == amount_centavos)
            {
                Some(pix) => Verdict::Succeeded {
                    end_to_end_id: pix.end_to_end_id.clone(),
                    paid_at: pix.horario.unix_ms(),
                },
                None => Verdict::AmountMismatch {
                    received_centavos: cob.pix.iter().map(|p| p.valor.centavos()).collect(),
                },
            }
        }
        CobStatus::RemovidaPeloUsuarioRecebedor => Verdict::Canceled {
            reason: CancelReason::RemovedByReceiver,
        },
        CobStatus::RemovidaPeloPsp => Verdict::Canceled {
            reason: CancelReason::RemovedByPsp,
        },
        CobStatus::Ativa => {
            let expires_at =
                cob.calendario.criacao.unix_ms() + i64::from(cob.calendario.expiracao) * 1000;
            if now >= expires_at + EXPIRY_GRACE_MS {
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
    use serde_json::json;

    fn cob(status: &str, pix: serde_json::Value) -> CobCompleta {
        serde_json::from_value(json!({
            "calendario": {"criacao": "2026-11-23T12:00:00Z", "expiracao": 3600},
            "txid": "7978c0c97ea847e78e8849634473c1f1",
            "revisao": 0,
            "status": status,
            "valor": {"original": "129.90"},
            "chave": "pix@pixgate.test",
            "pix": pix,
        }))
        .unwrap()
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
