//! The callbacks of Pix Automático: on every change of a recurrence, `POST
//! {webhookrec}/rec` `{"recs": [RecNotification]}`; of a recurring charge (scheduled, an
//! attempt settled, rejected or asked again, cancelled, a devolução of its pix settled), `POST
//! {webhookcobr}/cobr` `{"cobsr": [CobRNotification]}`. Through the simulator's callback
//! machinery: its client (loopback only), its switches (drop, duplicate, hold until
//! `POST /_sim/callbacks/flush`), its record of deliveries and counters. One attempt each, as
//! for the pix callbacks.

use std::sync::Arc;

use crate::api::loopback_url;
use crate::state::{Delivery, Sim, State, now_ms};
use pixgate_pix::apipix::{
    CobrCallback, CobrCompleta, CobrNotification, Pix, RecCallback, RecCompleta, RecNotification,
    Txid,
};

/// One notification, of either kind.
#[derive(Debug, Clone)]
pub(crate) enum Notification {
    Rec(RecNotification),
    Cobr(CobrNotification),
}

impl Notification {
    /// What the standard appends to the registered URL.
    fn path(&self) -> &'static str {
        match self {
            Self::Rec(_) => "rec",
            Self::Cobr(_) => "cobr",
        }
    }
}

/// A recurrence changed: its callback, if `/webhookrec` is set.
pub(crate) fn notify_rec(sim: &Arc<Sim>, state: &mut State, rec: &RecCompleta) {
    let Some(url) = state.rec.webhook_rec.as_ref().map(|w| w.url.clone()) else {
        return;
    };
    dispatch(sim, state, url, Notification::Rec(rec.into()));
}

/// A recurring charge changed: its callback, if `/webhookcobr` is set.
pub(crate) fn notify_cobr(sim: &Arc<Sim>, state: &mut State, cobr: &CobrCompleta) {
    let Some(url) = state.rec.webhook_cobr.as_ref().map(|w| w.url.clone()) else {
        return;
    };
    dispatch(sim, state, url, Notification::Cobr(cobr.into()));
}

/// A devolução of a recurring charge's pix settled: the charge's callback (it carries the
/// pix with its `devolucoes[]`).
pub(crate) fn notify_cobr_of_pix(sim: &Arc<Sim>, state: &mut State, pix: &Pix) {
    let Some(cobr) = pix
        .txid
        .as_deref()
        .and_then(|t| Txid::parse(t).ok())
        .and_then(|t| state.rec.cobrs.get(&t))
        .cloned()
    else {
        return;
    };
    notify_cobr(sim, state, &cobr);
}

/// Sends, drops or holds one notification as the callback switches say.
fn dispatch(sim: &Arc<Sim>, state: &mut State, url: String, notification: Notification) {
    let switches = state.switches.callbacks.clone();
    if switches.drop {
        state.stats.callbacks.dropped += 1;
        return;
    }
    if switches.hold {
        state.rec.held.push((url, notification));
        state.stats.callbacks.held += 1;
        return;
    }
    let times = if switches.duplicate { 2 } else { 1 };
    let sim = sim.clone();
    tokio::spawn(async move {
        for _ in 0..times {
            post(&sim, &url, vec![notification.clone()]).await;
        }
    });
}

/// Posts notifications of one kind (the first one's) to `{webhook_url}/rec` or `/cobr`, and
/// records how it went.
async fn post(sim: &Sim, webhook_url: &str, items: Vec<Notification>) -> Delivery {
    let path = items.first().map_or("rec", Notification::path);
    let target = format!("{}/{path}", webhook_url.trim_end_matches('/'));
    let mut recs = Vec::new();
    let mut cobsr = Vec::new();
    for item in items {
        match item {
            Notification::Rec(n) => recs.push(n),
            Notification::Cobr(n) => cobsr.push(n),
        }
    }
    let end_to_end_ids = cobsr
        .iter()
        .flat_map(|c| c.pix.iter().map(|p| p.end_to_end_id.clone()))
        .collect();
    let body = if path == "rec" {
        serde_json::to_value(RecCallback { recs })
    } else {
        serde_json::to_value(CobrCallback { cobsr })
    }
    .unwrap_or_default();
    let result = match loopback_url(&target) {
        Err(e) => Err(e),
        Ok(url) => sim
            .callbacks
            .client
            .post(url)
            .json(&body)
            .send()
            .await
            .map(|response| response.status().as_u16())
            .map_err(|e| e.to_string()),
    };
    let delivery = Delivery {
        url: target,
        end_to_end_ids,
        status: result.as_ref().ok().copied(),
        error: result.err(),
        at_ms: now_ms(),
    };
    let mut state = sim.state();
    if delivery.status.is_some_and(|s| (200..300).contains(&s)) {
        state.stats.callbacks.delivered += 1;
    } else {
        state.stats.callbacks.failed += 1;
    }
    state.deliveries.push(delivery.clone());
    delivery
}

/// Sends the held notifications, after the pix ones (`POST /_sim/callbacks/flush`): in the
/// order they arose or `reverse`d, one POST each or, with `batch`, one per URL and kind.
pub(crate) async fn flush(sim: &Arc<Sim>, reverse: bool, batch: bool) -> Vec<Delivery> {
    let mut held = std::mem::take(&mut sim.state().rec.held);
    if reverse {
        held.reverse();
    }
    let mut posts: Vec<(String, Vec<Notification>)> = Vec::new();
    for (url, n) in held {
        let same = |(u, items): &&mut (String, Vec<Notification>)| {
            batch && *u == url && items.first().map(Notification::path) == Some(n.path())
        };
        match posts.iter_mut().find(same) {
            Some((_, items)) => items.push(n),
            None => posts.push((url, vec![n])),
        }
    }
    let mut deliveries = Vec::with_capacity(posts.len());
    for (url, items) in posts {
        deliveries.push(post(sim, &url, items).await);
    }
    deliveries
}
