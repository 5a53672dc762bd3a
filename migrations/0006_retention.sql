-- Retention (host/src/retention.rs): the purge job finds what is past its retention by these.
-- The partial index's predicate is written exactly as the purge's query states it.
create index webhook_deliveries_completed_idx on webhook_deliveries (completed_at)
    where status <> 'PENDING';
-- Also what a delete of an event checks its references with.
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
create index payment_events_created_idx on payment_events (created_at);
create index decision_traces_created_idx on decision_traces (created_at);
create index psp_calls_created_idx on psp_calls (created_at);
create index shadow_results_created_idx on shadow_results (created_at);
