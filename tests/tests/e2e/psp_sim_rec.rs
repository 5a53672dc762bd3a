//! `pixgate psp-sim`'s Pix Automático end to end (API Pix 2.9.0 `/locrec`, `/rec`,
//! `/solicrec`, `/cobr`, `/webhookrec`, `/webhookcobr`): the real binary over https with mTLS,
//! driven by a real client and read with pixgate's own wire types, its callbacks posted to a
//! real HTTPS receiver on loopback. What pixgate's PSP side will rely on: the three journeys
//! approved (journey 3 paying its immediate charge), rejected, expired, cancelled by either
//! side; recurring charges scheduled, paid at once, rejected and retried, ended by a code or by
//! the policy; the standard's refusals; the callbacks of both kinds.

use pixgate_domain::due::Date;
use pixgate_e2e::live::problem;
use pixgate_e2e::rec::{RecSim, WAIT, business_day, cobr_body, rec_body, today};
use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_pix::apipix::{
    CobStatus, CobrCallback, CobrCompleta, CobrStatus, Natureza, Pix, PoliticaRetentativa,
    RecCallback, RecCompleta, RecStatus, SolicRec, SolicRecStatus, Solicitante, TentativaStatus,
    TipoJornada, txid_for,
};
use reqwest::Method;
use serde_json::{Value, json};

const CHAVE: &str = "7d9f0335-8dcc-4054-9bf9-0dbd61d36906";

fn rec(value: &Value) -> RecCompleta {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

fn cobr(value: &Value) -> CobrCompleta {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

/// Ids and statuses, as called back.
type Called<S> = Vec<(String, S)>;

/// The recurrences and charges the receiver was called back with, in order, by path.
fn callbacks(receiver: &Receiver) -> (Called<RecStatus>, Called<CobrStatus>) {
    let mut recs = Vec::new();
    let mut cobrs = Vec::new();
    for r in receiver.received() {
        match r.path.as_str() {
            "/hooks/rec" => {
                let body: RecCallback = serde_json::from_value(r.json()).unwrap();
                recs.extend(body.recs.into_iter().map(|n| (n.id_rec, n.status.unwrap())));
            }
            "/hooks/cobr" => {
                let body: CobrCallback = serde_json::from_value(r.json()).unwrap();
                cobrs.extend(body.cobsr.into_iter().map(|n| (n.txid, n.status.unwrap())));
            }
            _ => {}
        }
    }
    (recs, cobrs)
}

/// How many callbacks said `txid` was `status` (callbacks are posted each by its own task:
/// two close together may arrive in either order).
fn count(cobrs: &[(String, CobrStatus)], txid: &str, status: CobrStatus) -> usize {
    cobrs
        .iter()
        .filter(|(t, s)| t == txid && *s == status)
        .count()
}

/// Waits until the receiver got `n` requests.
async fn wait(receiver: &Receiver, n: usize) {
    receiver.wait_for(n, WAIT).await;
}

#[tokio::test]
async fn journey_2_a_recurrence_code_approved_by_the_payer() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let (status, webhook) = sim.api(Method::GET, "/webhookrec", None).await;
    assert_eq!(status, 200);
    assert_eq!(webhook["webhookUrl"], receiver.ip_url("/hooks"));

    let (loc_id, location) = sim.locrec().await;
    assert!(
        location.starts_with("pix.example.com/qr/v2/rec/"),
        "{location}"
    );
    let start = business_day(5);
    let mut body = rec_body("contract-j2", "49.90", start, "PERMITE_3R_7D");
    body["loc"] = json!(loc_id.parse::<i64>().unwrap());
    let created = sim.create_rec(&body).await;
    // 2.9.0's idRec: R, R (retries allowed), the PSP's ISPB, today, 11 characters.
    assert_eq!(created.id_rec.len(), 29);
    let stamp = today().to_string().replace('-', "");
    assert_eq!(
        &created.id_rec[..18],
        format!("RR87654321{stamp}"),
        "{}",
        created.id_rec
    );
    assert_eq!(created.status, RecStatus::Criada);
    assert_eq!(
        created.ativacao.as_ref().unwrap().jornada(),
        Some(TipoJornada::AguardandoDefinicao)
    );
    assert_eq!(created.loc.as_ref().unwrap().location, location);
    assert_eq!(created.politica(), Some(PoliticaRetentativa::Permite3R7D));
    // The location now names its recurrence, and serves no other.
    let (_, loc) = sim
        .api(Method::GET, &format!("/locrec/{loc_id}"), None)
        .await;
    assert_eq!(loc["idRec"], created.id_rec.as_str());
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&body)).await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused),
        ("RecOperacaoInvalida".to_owned(), vec!["rec.loc".to_owned()])
    );

    // The code the payer scans: the recurrence alone, its location in field 80.
    let read = sim.get_rec(&created.id_rec).await;
    let qr = read.dados_qr.clone().unwrap();
    assert_eq!(qr.jornada, TipoJornada::Jornada2);
    assert_eq!(
        pixgate_pix::brcode::recurrence_location(&qr.pix_copia_e_cola)
            .unwrap()
            .as_deref(),
        Some(location.as_str())
    );

    let approved = rec(&sim
        .post(&format!("/rec/{}/approve", created.id_rec), json!({}))
        .await);
    assert_eq!(approved.status, RecStatus::Aprovada);
    assert_eq!(
        approved.ativacao.as_ref().unwrap().jornada(),
        Some(TipoJornada::Jornada2)
    );
    let pagador = approved.pagador.clone().unwrap();
    assert_eq!(pagador.cpf.as_deref(), Some("45164632481"));
    assert_eq!(pagador.ispb_participante.as_deref(), Some("12345678"));
    let statuses: Vec<RecStatus> = approved.atualizacao.iter().map(|a| a.status).collect();
    assert_eq!(statuses, [RecStatus::Criada, RecStatus::Aprovada]);
    // Approved: no code to scan any more, nothing to approve again.
    assert_eq!(sim.get_rec(&created.id_rec).await.dados_qr, None);
    let (status, _) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/approve", created.id_rec),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);

    wait(&receiver, 1).await;
    let (recs, _) = callbacks(&receiver);
    assert_eq!(recs, [(created.id_rec.clone(), RecStatus::Aprovada)]);
    let stats = sim.stats().await;
    assert_eq!(stats["recsCreated"], 1);
    assert_eq!(stats["locrecsCreated"], 1);
}

#[tokio::test]
async fn journey_3_approving_pays_the_immediate_charge() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), Some(CHAVE))
        .await;
    let first = txid_for("store-1", "first-payment");
    let cob = sim.create_cob(&first, "49.90", CHAVE).await;
    let cob_location = cob["location"].as_str().unwrap().to_owned();
    let (loc_id, location) = sim.locrec().await;
    let mut body = rec_body("contract-j3", "49.90", business_day(30), "NAO_PERMITE");
    // The standard's int64: the simulator refuses it as text (pixgate's types read both).
    body["loc"] = json!(loc_id);
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&body)).await;
    assert_eq!(status, 400, "{refused}");
    body["loc"] = json!(loc_id.parse::<i64>().unwrap());
    body["ativacao"] = json!({"dadosJornada": {"txid": first}});
    let created = sim.create_rec(&body).await;
    assert!(created.id_rec.starts_with("RN"), "no retries: RN");
    assert_eq!(
        created.ativacao.as_ref().unwrap().txid(),
        Some(first.as_str())
    );

    // The composite code: the cob's, with the recurrence's location in field 80.
    let (status, read) = sim
        .api(
            Method::GET,
            &format!("/rec/{}?txid={first}", created.id_rec),
            None,
        )
        .await;
    assert_eq!(status, 200, "{read}");
    let qr = rec(&read).dados_qr.unwrap();
    assert_eq!(qr.jornada, TipoJornada::Jornada3);
    let code = pixgate_pix::brcode::parse(&qr.pix_copia_e_cola).unwrap();
    assert_eq!(code.location(), Some(cob_location.as_str()));
    assert_eq!(
        pixgate_pix::brcode::recurrence_location(&qr.pix_copia_e_cola)
            .unwrap()
            .as_deref(),
        Some(location.as_str())
    );
    // Another cob's txid is not this journey's.
    let other = txid_for("store-1", "another-cob");
    sim.create_cob(&other, "1.00", CHAVE).await;
    let (status, refused) = sim
        .api(
            Method::GET,
            &format!("/rec/{}?txid={other}", created.id_rec),
            None,
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).0, "RecConsultaInvalida");
    // A journey 3 recurrence must name an existing cob.
    let mut unknown = rec_body("contract-j3b", "49.90", business_day(30), "NAO_PERMITE");
    unknown["ativacao"] = json!({"dadosJornada": {"txid": "a".repeat(32)}});
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&unknown)).await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused).1,
        vec!["rec.ativacao.dadosJornada.txid".to_owned()]
    );

    let approved = rec(&sim
        .post(&format!("/rec/{}/approve", created.id_rec), json!({}))
        .await);
    assert_eq!(approved.status, RecStatus::Aprovada);
    assert_eq!(
        approved.ativacao.as_ref().unwrap().jornada(),
        Some(TipoJornada::Jornada3)
    );
    // The cob was paid as /_sim/cob/{txid}/pay pays it: CONCLUIDA, its pix called back.
    let (_, paid) = sim.api(Method::GET, &format!("/cob/{first}"), None).await;
    let paid: pixgate_pix::apipix::CobCompleta = serde_json::from_value(paid).unwrap();
    assert_eq!(paid.status, CobStatus::Concluida);
    assert_eq!(paid.pix[0].valor.centavos(), 4990);
    wait(&receiver, 2).await;
    let received = receiver.received();
    let pix_callbacks: Vec<&_> = received.iter().filter(|r| r.path == "/hooks/pix").collect();
    assert_eq!(pix_callbacks.len(), 1);
    let called: Vec<Pix> = serde_json::from_value(pix_callbacks[0].json()["pix"].clone()).unwrap();
    assert_eq!(called, paid.pix);
    let (recs, _) = callbacks(&receiver);
    assert_eq!(recs, [(created.id_rec, RecStatus::Aprovada)]);
}

#[tokio::test]
async fn journey_1_a_request_pushed_to_the_payers_bank() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let created = sim
        .create_rec(&rec_body(
            "contract-j1",
            "120.00",
            business_day(10),
            "PERMITE_3R_7D",
        ))
        .await;
    assert_eq!(created.loc, None);
    let expiry = pixgate_pix::time::iso8601(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
            + 7 * 86_400_000,
    );
    let solicitation = json!({
        "idRec": created.id_rec,
        "calendario": {"dataExpiracaoSolicitacao": expiry},
        "destinatario": {"agencia": "2569", "conta": "550689", "cpf": "45164632481",
                         "ispbParticipante": "91193552"}
    });
    let (status, solic) = sim
        .api(Method::POST, "/solicrec", Some(&solicitation))
        .await;
    assert_eq!(status, 201, "{solic}");
    let solic: SolicRec = serde_json::from_value(solic).unwrap();
    assert_eq!(solic.status, SolicRecStatus::Criada);
    assert_eq!(solic.id_solic_rec.len(), 29);
    assert!(solic.id_solic_rec.starts_with("SC87654321"));
    // One request at a time per recurrence; an expiry in the past; no destinatario.
    let (status, refused) = sim
        .api(Method::POST, "/solicrec", Some(&solicitation))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused),
        (
            "SolicRecOperacaoInvalida".to_owned(),
            vec!["solicrec.idRec".to_owned()]
        )
    );
    let mut past = solicitation.clone();
    past["calendario"]["dataExpiracaoSolicitacao"] = json!("2020-01-01T00:00:00Z");
    let (status, _) = sim.api(Method::POST, "/solicrec", Some(&past)).await;
    assert_eq!(status, 400);
    let mut nobody = solicitation.clone();
    nobody.as_object_mut().unwrap().remove("destinatario");
    let (status, _) = sim.api(Method::POST, "/solicrec", Some(&nobody)).await;
    assert_eq!(status, 400);

    // The payer accepts it in their bank app.
    let approved = rec(&sim
        .post(&format!("/rec/{}/approve", created.id_rec), json!({}))
        .await);
    assert_eq!(
        approved.ativacao.as_ref().unwrap().jornada(),
        Some(TipoJornada::Jornada1)
    );
    assert_eq!(
        approved.pagador.unwrap().ispb_participante.as_deref(),
        Some("91193552"),
        "the payer's PSP the request went to"
    );
    let (_, read) = sim
        .api(
            Method::GET,
            &format!("/solicrec/{}", solic.id_solic_rec),
            None,
        )
        .await;
    let read: SolicRec = serde_json::from_value(read).unwrap();
    assert_eq!(read.status, SolicRecStatus::Aceita);
    // Answered: it can no longer be cancelled.
    let (status, refused) = sim
        .api(
            Method::PATCH,
            &format!("/solicrec/{}", solic.id_solic_rec),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    wait(&receiver, 1).await;
    assert_eq!(
        callbacks(&receiver).0,
        [(created.id_rec, RecStatus::Aprovada)]
    );
}

#[tokio::test]
async fn a_pending_request_is_cancelled_with_a_201_as_the_standard_answers() {
    let ca = TestCa::new();
    let sim = RecSim::start(&ca).await;
    let created = sim
        .create_rec(&rec_body(
            "contract-cancel-request",
            "10.00",
            business_day(10),
            "NAO_PERMITE",
        ))
        .await;
    let (status, solic) = sim
        .api(
            Method::POST,
            "/solicrec",
            Some(&json!({
                "idRec": created.id_rec,
                "calendario": {"dataExpiracaoSolicitacao": "2999-01-01T00:00:00Z"},
                "destinatario": {"conta": "550689", "cnpj": "12ABC34501DE35", "ispbParticipante": "A1B2C3D4"}
            })),
        )
        .await;
    assert_eq!(status, 201, "{solic}");
    let id = solic["idSolicRec"].as_str().unwrap();
    let (status, cancelled) = sim
        .api(
            Method::PATCH,
            &format!("/solicrec/{id}"),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 201, "{cancelled}");
    let cancelled: SolicRec = serde_json::from_value(cancelled).unwrap();
    assert_eq!(cancelled.status, SolicRecStatus::Cancelada);
    let (status, refused) = sim
        .api(
            Method::PATCH,
            &format!("/solicrec/{id}"),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).0, "SolicRecOperacaoInvalida");
    // Nothing waits at the payer's bank and there is no code: nothing to approve with.
    let (status, _) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/approve", created.id_rec),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);
    let (status, missing) = sim.api(Method::GET, "/solicrec/SC0000", None).await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "SolicRecNaoEncontrada");
}

#[tokio::test]
async fn the_payer_rejects_with_ap13_and_a_recurrence_expires() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let body = rec_body("contract-reject", "10.00", business_day(10), "NAO_PERMITE");
    let created = sim.create_rec(&body).await;
    let (status, refused) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/reject", created.id_rec),
            json!({"code": "AM04"}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let rejected = rec(&sim
        .post(
            &format!("/rec/{}/reject", created.id_rec),
            json!({"code": "AP13"}),
        )
        .await);
    assert_eq!(rejected.status, RecStatus::Rejeitada);
    let rejeicao = rejected.encerramento.unwrap().rejeicao.unwrap();
    assert_eq!(rejeicao.codigo, "AP13");
    // Ended: no approval, no change, no charge.
    let (status, _) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/approve", created.id_rec),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);
    let (status, refused) = sim
        .api(
            Method::PATCH,
            &format!("/rec/{}", created.id_rec),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).0, "RecOperacaoInvalida");
    let (status, refused) = sim
        .put_cobr(
            &txid_for("store-1", "never"),
            &cobr_body(&created.id_rec, "10.00", business_day(12)),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused),
        (
            "CobROperacaoInvalida".to_owned(),
            vec!["cobr.idRec".to_owned()]
        )
    );

    let other = sim
        .create_rec(&rec_body(
            "contract-expire",
            "10.00",
            business_day(10),
            "NAO_PERMITE",
        ))
        .await;
    let expired = rec(&sim
        .post(&format!("/rec/{}/expire", other.id_rec), json!({}))
        .await);
    assert_eq!(expired.status, RecStatus::Expirada);

    wait(&receiver, 2).await;
    // Each callback is posted by its own task, so the two may arrive in either order.
    let mut recs = callbacks(&receiver).0;
    recs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected = vec![
        (created.id_rec, RecStatus::Rejeitada),
        (other.id_rec, RecStatus::Expirada),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(recs, expected);
    // The standard's other refusals of a recurrence.
    let mut both = rec_body("contract-both", "10.00", business_day(10), "NAO_PERMITE");
    both["valor"]["valorMinimoRecebedor"] = json!("5.00");
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&both)).await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, vec!["rec.valor".to_owned()]);
    let yesterday = rec_body(
        "contract-past",
        "10.00",
        today().add_days(-1),
        "NAO_PERMITE",
    );
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&yesterday)).await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused).1,
        vec!["rec.calendario.dataInicial".to_owned()]
    );
    let mut unknown_loc = rec_body("contract-loc", "10.00", business_day(10), "NAO_PERMITE");
    unknown_loc["loc"] = json!(999_999);
    let (status, refused) = sim.api(Method::POST, "/rec", Some(&unknown_loc)).await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, vec!["rec.loc".to_owned()]);
}

/// An approved recurrence with a charge scheduled: the charge's txid.
async fn scheduled(sim: &RecSim, id_rec: &str, name: &str, due: Date) -> String {
    let txid = txid_for("store-1", name);
    let created = sim
        .create_cobr(&txid, &cobr_body(id_rec, "49.90", due))
        .await;
    assert_eq!(created.status, CobrStatus::Ativa);
    txid
}

#[tokio::test]
async fn cancelled_by_the_payer_and_by_the_receiver_with_their_charges() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let start = business_day(5);
    let by_payer = sim
        .approved_rec(&rec_body("contract-p", "49.90", start, "PERMITE_3R_7D"))
        .await;
    let charge = scheduled(&sim, &by_payer.id_rec, "payer-cancel", business_day(6)).await;
    let cancelled = rec(&sim
        .post(&format!("/rec/{}/cancel", by_payer.id_rec), json!({}))
        .await);
    assert_eq!(cancelled.status, RecStatus::Cancelada);
    let cancelamento = cancelled.encerramento.unwrap().cancelamento.unwrap();
    assert_eq!(cancelamento.solicitante, Solicitante::UsuarioPagador);
    assert_eq!(cancelamento.codigo, "SLDB");
    let read = sim.get_cobr(&charge).await;
    assert_eq!(read.status, CobrStatus::Cancelada);
    assert_eq!(read.tentativas[0].status, TentativaStatus::Cancelada);
    assert_eq!(
        read.encerramento.unwrap().cancelamento.unwrap().solicitante,
        Solicitante::UsuarioPagador
    );

    let by_receiver = sim
        .approved_rec(&rec_body("contract-r", "49.90", start, "PERMITE_3R_7D"))
        .await;
    let (status, patched) = sim
        .api(
            Method::PATCH,
            &format!("/rec/{}", by_receiver.id_rec),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 200, "{patched}");
    let patched = rec(&patched);
    assert_eq!(patched.status, RecStatus::Cancelada);
    let cancelamento = patched.encerramento.unwrap().cancelamento.unwrap();
    assert_eq!(cancelamento.solicitante, Solicitante::UsuarioRecebedor);
    // Cancelled: the payer cannot cancel it again, nor the receiver.
    let (status, _) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/cancel", by_receiver.id_rec),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);

    // The receiver cancels a charge before its first attempt's date.
    let kept = sim
        .approved_rec(&rec_body("contract-k", "49.90", start, "PERMITE_3R_7D"))
        .await;
    let charge2 = scheduled(&sim, &kept.id_rec, "receiver-cancel", business_day(6)).await;
    let (status, cancelled) = sim
        .api(
            Method::PATCH,
            &format!("/cobr/{charge2}"),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 200, "{cancelled}");
    let cancelled = cobr(&cancelled);
    assert_eq!(cancelled.status, CobrStatus::Cancelada);
    assert_eq!(
        cancelled.encerramento.unwrap().cancelamento.unwrap().codigo,
        "SLCR"
    );
    // The cycle is free again: a new charge for it.
    scheduled(&sim, &kept.id_rec, "receiver-cancel-2", business_day(6)).await;

    // Callbacks: three approvals, two cancellations, charges scheduled and cancelled.
    wait(&receiver, 10).await;
    let (recs, cobrs) = callbacks(&receiver);
    assert!(recs.contains(&(by_payer.id_rec.clone(), RecStatus::Cancelada)));
    assert!(recs.contains(&(by_receiver.id_rec.clone(), RecStatus::Cancelada)));
    assert_eq!(count(&cobrs, &charge, CobrStatus::Ativa), 1);
    assert_eq!(count(&cobrs, &charge, CobrStatus::Cancelada), 1);
    assert!(cobrs.contains(&(charge2.clone(), CobrStatus::Cancelada)));
}

#[tokio::test]
async fn a_recurring_charge_paid_at_its_first_attempt_is_a_pix_like_any() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let approved = sim
        .approved_rec(&rec_body(
            "contract-paid",
            "49.90",
            business_day(3),
            "NAO_PERMITE",
        ))
        .await;
    let due = business_day(4);
    let txid = txid_for("store-1", "cycle-1");
    let body = cobr_body(&approved.id_rec, "49.90", due);
    let created = sim.create_cobr(&txid, &body).await;
    assert_eq!(created.status, CobrStatus::Ativa);
    assert_eq!(
        created.politica_retentativa,
        Some(PoliticaRetentativa::NaoPermite)
    );
    assert_eq!(created.calendario.criacao, Some(today().to_string()));
    let first = &created.tentativas[0];
    assert_eq!(first.status, TentativaStatus::Agendada);
    assert_eq!(first.tipo.as_deref(), Some("AGND"));
    assert_eq!(first.data_liquidacao, due.to_string());
    let e2eid = first.end_to_end_id.clone().unwrap();
    assert_eq!(e2eid.len(), 32);
    // The same PUT again is the same charge; another charge in the same cycle is refused.
    let (status, again) = sim.put_cobr(&txid, &body).await;
    assert_eq!(status, 201);
    assert_eq!(cobr(&again), created);
    let (status, refused) = sim
        .put_cobr(&txid_for("store-1", "cycle-1-again"), &body)
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused).1,
        vec!["cobr.calendario.dataDeVencimento".to_owned()]
    );
    let mut past = body.clone();
    past["calendario"]["dataDeVencimento"] = json!(today().add_days(-1).to_string());
    let (status, _) = sim.put_cobr(&txid_for("store-1", "past"), &past).await;
    assert_eq!(status, 400);
    let mut no_account = body.clone();
    no_account.as_object_mut().unwrap().remove("recebedor");
    let (status, _) = sim
        .put_cobr(&txid_for("store-1", "no-account"), &no_account)
        .await;
    assert_eq!(status, 400);
    // Nothing to retry while the attempt is open.
    let (status, refused) = sim.retentativa(&txid, &due.add_days(1).to_string()).await;
    assert_eq!(status, 400, "{refused}");

    let (status, paid) = sim.attempt(&txid, json!({"outcome": "pay"})).await;
    assert_eq!(status, 200, "{paid}");
    let paid = cobr(&paid);
    assert_eq!(paid.status, CobrStatus::Concluida);
    assert_eq!(paid.tentativas[0].status, TentativaStatus::Paga);
    assert_eq!(paid.pix.len(), 1);
    assert_eq!(paid.pix[0].end_to_end_id, e2eid);
    assert_eq!(paid.pix[0].valor.centavos(), 4990);
    let (status, _) = sim.attempt(&txid, json!({"outcome": "pay"})).await;
    assert_eq!(status, 409, "paid once");
    let (status, refused) = sim
        .api(
            Method::PATCH,
            &format!("/cobr/{txid}"),
            Some(&json!({"status": "CANCELADA"})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");

    // Its pix is read and given back as a cob's; the MED's nature is Pix Automático's.
    let (status, read) = sim.api(Method::GET, &format!("/pix/{e2eid}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_value::<Pix>(read).unwrap(), paid.pix[0]);
    let (status, devolucao) = sim
        .api(
            Method::PUT,
            &format!("/pix/{e2eid}/devolucao/d1"),
            Some(&json!({"valor": "9.90"})),
        )
        .await;
    assert_eq!(status, 201, "{devolucao}");
    assert_eq!(devolucao["status"], "DEVOLVIDO");
    let (status, _) = sim
        .control(
            Method::POST,
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "5.00", "natureza": "MED_OPERACIONAL"}),
        )
        .await;
    assert_eq!(status, 400, "MED_OPERACIONAL is not Pix Automático's");
    let med = sim
        .post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "5.00", "natureza": "MED_PIX_AUTOMATICO"}),
        )
        .await;
    assert_eq!(med["natureza"], "MED_PIX_AUTOMATICO");
    let read = sim.get_cobr(&txid).await;
    let natures: Vec<Natureza> = read.pix[0]
        .devolucoes
        .iter()
        .map(|d| d.natureza())
        .collect();
    assert_eq!(natures, [Natureza::Original, Natureza::MedPixAutomatico]);

    // Called back: scheduled, paid, and each devolução (the charge with its pix).
    wait(&receiver, 5).await;
    let (_, cobrs) = callbacks(&receiver);
    assert_eq!(cobrs.len(), 4);
    assert_eq!(count(&cobrs, &txid, CobrStatus::Ativa), 1);
    assert_eq!(count(&cobrs, &txid, CobrStatus::Concluida), 3);
    let with_both = receiver.received().iter().any(|r| {
        r.path == "/hooks/cobr"
            && serde_json::from_value::<CobrCallback>(r.json())
                .unwrap()
                .cobsr[0]
                .pix
                .first()
                .is_some_and(|p| p.devolucoes.len() == 2)
    });
    assert!(with_both, "the last devolução's callback carries both");
    let stats = sim.stats().await;
    assert_eq!(stats["cobrsCreated"], 1);
    assert_eq!(stats["putCobr"][&txid], 2);
}

#[tokio::test]
async fn rejected_then_retried_then_paid_and_the_retry_rules() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let approved = sim
        .approved_rec(&rec_body(
            "contract-retry",
            "49.90",
            business_day(3),
            "PERMITE_3R_7D",
        ))
        .await;
    let due = business_day(4);
    let txid = scheduled(&sim, &approved.id_rec, "retry", due).await;

    let (status, rejected) = sim
        .attempt(&txid, json!({"outcome": "reject", "code": "AM04"}))
        .await;
    assert_eq!(status, 200, "{rejected}");
    let rejected = cobr(&rejected);
    assert_eq!(rejected.status, CobrStatus::Ativa, "waits for a retry");
    assert_eq!(rejected.tentativas[0].status, TentativaStatus::Rejeitada);
    assert_eq!(
        rejected.tentativas[0].rejeicao.as_ref().unwrap().codigo,
        "AM04"
    );
    let (status, _) = sim.attempt(&txid, json!({"outcome": "pay"})).await;
    assert_eq!(status, 409, "no attempt open");
    // Not after the failed attempt, more than 7 days after the due date, not a date.
    for (date, why) in [
        (due.to_string(), "última tentativa"),
        (due.add_days(8).to_string(), "7 dias"),
    ] {
        let (status, refused) = sim.retentativa(&txid, &date).await;
        assert_eq!(status, 400, "{date}: {refused}");
        assert_eq!(problem(&refused).0, "CobROperacaoInvalida");
        assert!(
            refused["violacoes"][0]["razao"]
                .as_str()
                .unwrap()
                .contains(why)
        );
    }
    let (status, _) = sim.retentativa(&txid, "2026-02-30").await;
    assert_eq!(status, 400);

    let (status, retried) = sim.retentativa(&txid, &due.add_days(1).to_string()).await;
    assert_eq!(status, 201, "{retried}");
    let retried = cobr(&retried);
    assert_eq!(retried.tentativas.len(), 2);
    assert_eq!(retried.tentativas[1].tipo.as_deref(), Some("NTAG"));
    assert_eq!(retried.tentativas[1].status, TentativaStatus::Agendada);
    assert_eq!(
        retried.tentativas[1].data_liquidacao,
        due.add_days(1).to_string()
    );
    // One open attempt at a time.
    let (status, _) = sim.retentativa(&txid, &due.add_days(2).to_string()).await;
    assert_eq!(status, 400);

    let (status, paid) = sim.attempt(&txid, json!({"outcome": "pay"})).await;
    assert_eq!(status, 200);
    let paid = cobr(&paid);
    assert_eq!(paid.status, CobrStatus::Concluida);
    assert_eq!(
        paid.pix[0].end_to_end_id,
        paid.tentativas[1].end_to_end_id.clone().unwrap()
    );
    let stats = sim.stats().await;
    assert_eq!(stats["retentativasScheduled"], 1);
    assert_eq!(stats["retentativasAsked"], 5);

    // Three retries, each rejected: the third's rejection ends the charge.
    let next = scheduled(&sim, &approved.id_rec, "retry-3", business_day(40)).await;
    let due = Date::parse(&sim.get_cobr(&next).await.tentativas[0].data_liquidacao).unwrap();
    sim.attempt(&next, json!({"outcome": "reject", "code": "AM04"}))
        .await;
    for day in 1..=3 {
        let (status, _) = sim.retentativa(&next, &due.add_days(day).to_string()).await;
        assert_eq!(status, 201);
        let (_, after) = sim
            .attempt(&next, json!({"outcome": "reject", "code": "AM04"}))
            .await;
        let expected = if day < 3 {
            CobrStatus::Ativa
        } else {
            CobrStatus::Rejeitada
        };
        assert_eq!(cobr(&after).status, expected, "after retry {day}");
    }
    let (status, _) = sim.retentativa(&next, &due.add_days(5).to_string()).await;
    assert_eq!(status, 400);

    // The approval; the first charge scheduled, rejected (still ATIVA), retried, paid; the
    // second scheduled, then 3 times rejected and retried, rejected for good.
    wait(&receiver, 13).await;
    let (_, cobrs) = callbacks(&receiver);
    assert_eq!(count(&cobrs, &txid, CobrStatus::Ativa), 3);
    assert_eq!(count(&cobrs, &txid, CobrStatus::Concluida), 1);
    assert_eq!(count(&cobrs, &next, CobrStatus::Ativa), 7);
    assert_eq!(count(&cobrs, &next, CobrStatus::Rejeitada), 1);
}

#[tokio::test]
async fn a_terminal_code_or_a_policy_without_retries_ends_the_charge() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks"), None)
        .await;
    let retries = sim
        .approved_rec(&rec_body(
            "contract-ac05",
            "49.90",
            business_day(3),
            "PERMITE_3R_7D",
        ))
        .await;
    let txid = scheduled(&sim, &retries.id_rec, "ac05", business_day(4)).await;
    let (status, ended) = sim
        .attempt(&txid, json!({"outcome": "reject", "code": "AC05"}))
        .await;
    assert_eq!(status, 200, "{ended}");
    let ended = cobr(&ended);
    assert_eq!(ended.status, CobrStatus::Rejeitada);
    assert_eq!(ended.encerramento.unwrap().rejeicao.unwrap().codigo, "AC05");
    let (status, _) = sim.retentativa(&txid, &business_day(6).to_string()).await;
    assert_eq!(status, 400);

    let strict = sim
        .approved_rec(&rec_body(
            "contract-strict",
            "49.90",
            business_day(3),
            "NAO_PERMITE",
        ))
        .await;
    let txid2 = scheduled(&sim, &strict.id_rec, "strict", business_day(4)).await;
    let (_, ended) = sim
        .attempt(&txid2, json!({"outcome": "reject", "code": "AM04"}))
        .await;
    let ended = cobr(&ended);
    assert_eq!(ended.status, CobrStatus::Rejeitada);
    assert_eq!(ended.encerramento.unwrap().rejeicao.unwrap().codigo, "AM04");
    let (status, refused) = sim.retentativa(&txid2, &business_day(6).to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(
        refused["violacoes"][0]["razao"],
        "A política configurada na recorrência não permite retentativa de cobrança."
    );
    // Rejected for good: the cycle takes a new charge.
    scheduled(&sim, &strict.id_rec, "strict-again", business_day(4)).await;

    wait(&receiver, 7).await;
    let (_, cobrs) = callbacks(&receiver);
    assert!(cobrs.contains(&(txid, CobrStatus::Rejeitada)));
    assert!(cobrs.contains(&(txid2, CobrStatus::Rejeitada)));
    let (status, missing) = sim
        .api(Method::GET, &format!("/cobr/{}", "b".repeat(32)), None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "CobRNaoEncontrado");
}

#[tokio::test]
async fn callbacks_are_held_and_flushed_and_webhooks_deleted() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = RecSim::start(&ca).await;
    sim.register_webhooks(&receiver.ip_url("/hooks/"), None)
        .await;
    let (status, _) = sim
        .control(
            Method::PUT,
            "/switches",
            json!({"callbacks": {"hold": true}}),
        )
        .await;
    assert_eq!(status, 200);
    let approved = sim
        .approved_rec(&rec_body(
            "contract-held",
            "49.90",
            business_day(3),
            "NAO_PERMITE",
        ))
        .await;
    let txid = scheduled(&sim, &approved.id_rec, "held", business_day(4)).await;
    let (_, held) = sim.control(Method::GET, "/callbacks", Value::Null).await;
    assert_eq!(held["held"], 2);
    assert_eq!(receiver.count(), 0);
    let flushed = sim
        .post("/callbacks/flush", json!({"order": "reverse"}))
        .await;
    let urls: Vec<&str> = flushed["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            receiver.ip_url("/hooks/cobr"),
            receiver.ip_url("/hooks/rec")
        ],
        "a trailing slash is not doubled; newest first"
    );
    let (recs, cobrs) = callbacks(&receiver);
    assert_eq!(recs, [(approved.id_rec, RecStatus::Aprovada)]);
    assert_eq!(cobrs, [(txid, CobrStatus::Ativa)]);

    for path in ["/webhookrec", "/webhookcobr"] {
        let (status, _) = sim.api(Method::DELETE, path, None).await;
        assert_eq!(status, 204);
        let (status, missing) = sim.api(Method::GET, path, None).await;
        assert_eq!(status, 404, "{missing}");
        let (status, refused) = sim
            .api(
                Method::PUT,
                path,
                Some(&json!({"webhookUrl": "https://example.com/hooks"})),
            )
            .await;
        assert_eq!(status, 400, "loopback only: {refused}");
    }
}

/// For load tests: copies of an approved recurrence, with ids derived from its own, each
/// charged like the original; only an approved one is copied, and an id is never taken twice.
#[tokio::test(flavor = "multi_thread")]
async fn an_approved_recurrence_is_copied_for_load_tests_under_derived_ids() {
    let ca = TestCa::new();
    let sim = RecSim::start(&ca).await;
    let body = rec_body("contract-copies", "19.90", business_day(3), "NAO_PERMITE");
    let pending = sim.create_rec(&body).await;
    let (status, refused) = sim
        .control(
            Method::POST,
            &format!("/rec/{}/copies", pending.id_rec),
            json!({"count": 2}),
        )
        .await;
    assert_eq!(status, 409, "not approved: {refused}");
    let approved = sim.approved_rec(&body).await;
    let path = format!("/rec/{}/copies", approved.id_rec);
    for bad in [
        json!({"count": 0}),
        json!({"count": 1_000_001}),
        json!({}),
        json!({"count": 1, "x": 1}),
    ] {
        let (status, answer) = sim.control(Method::POST, &path, bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {answer}");
    }
    let made = sim.post(&path, json!({"count": 3})).await;
    let prefix = &approved.id_rec[..18];
    assert_eq!(made["count"], 3, "{made}");
    assert_eq!(
        made["first"],
        json!(format!("{prefix}00000000001")),
        "{made}"
    );
    assert_eq!(
        made["last"],
        json!(format!("{prefix}00000000003")),
        "{made}"
    );
    let second = sim.get_rec(&format!("{prefix}00000000002")).await;
    assert_eq!(second.status, RecStatus::Aprovada);
    assert_eq!(second.vinculo, approved.vinculo);
    assert_eq!(second.calendario, approved.calendario);
    // A copy is charged as the original is.
    let due = business_day(4);
    let created = sim
        .create_cobr(
            &txid_for("store-1", "copy-2"),
            &cobr_body(&second.id_rec, "19.90", due),
        )
        .await;
    assert_eq!(created.status, CobrStatus::Ativa);
    // The same ids again: taken.
    let (status, answer) = sim.control(Method::POST, &path, json!({"count": 1})).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        sim.stats().await["recsCreated"],
        2,
        "copies are not POST /rec"
    );
}
