-- Pix Automático events (issue 33, DESIGN.md section 17): a mandate's moves
-- (`mandate.authorized`, `mandate.rejected`, `mandate.expired`, `mandate.canceled`) and a
-- recurring charge's failed attempt (`payment.attempt_failed`, which names its intent too),
-- beside the payment and refund events; a delivery points at one of the three. Expand only: a
-- new table and a nullable column, so the previous release runs beside this one.
create table mandate_events (
    id text not null constraint mandate_events_pk primary key,
    merchant_id text not null constraint mandate_events_merchant_fk references merchants (id),
    mandate_id text not null constraint mandate_events_mandate_fk references mandates (id),
    payment_intent_id text constraint mandate_events_intent_fk references payment_intents (id),
    type text not null constraint mandate_events_type_check
        check (type in ('mandate.authorized', 'mandate.rejected', 'mandate.expired',
            'mandate.canceled', 'payment.attempt_failed')),
    data text not null,
    created_at bigint not null
);

create index mandate_events_mandate_idx on mandate_events (mandate_id, created_at);
create index mandate_events_intent_idx on mandate_events (payment_intent_id, created_at);
create index mandate_events_created_idx on mandate_events (created_at);
alter table webhook_deliveries add column mandate_event_id text
    constraint webhook_deliveries_mandate_event_fk references mandate_events (id);
create index webhook_deliveries_mandate_event_idx on webhook_deliveries (mandate_event_id);
