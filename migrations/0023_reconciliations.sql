-- The ledger sweep (issue 34, DESIGN.md section 18): per provider and Brasília day, every pix
-- the PSP lists as received (`GET /pix`) matched against pixgate's intents and refunds, one
-- finding per pix or devolução, plus the intents pixgate holds paid that the PSP did not list.
-- Expand only: two new tables, so the previous release runs beside this one.
create table reconciliations (
    id text not null constraint reconciliations_pk primary key,
    provider_code text not null,
    -- The Brasília day swept, YYYY-MM-DD.
    day text not null,
    status text not null constraint reconciliations_status_check
        check (status in ('RUNNING', 'DONE', 'FAILED')),
    -- Who asked: the daily schedule, or an operator (`POST /admin/v1/reconciliations`).
    trigger text not null constraint reconciliations_trigger_check
        check (trigger in ('DAILY', 'OPERATOR')),
    requested_by text,
    -- Pages of `GET /pix` read so far, and the pix and devoluções they held.
    pages bigint not null default 0,
    pix bigint not null default 0,
    -- Held by the instance sweeping (Unix ms), renewed page by page: a run whose holder died
    -- is ended FAILED once this has passed.
    lease_until bigint not null,
    error text,
    started_at bigint not null,
    finished_at bigint
);

create index reconciliations_started_idx on reconciliations (started_at, id);
create index reconciliations_day_idx on reconciliations (provider_code, day, started_at);
create index reconciliations_running_idx on reconciliations (status, lease_until);
-- One run at a time per provider and day, across instances.
create unique index reconciliations_running_key on reconciliations (provider_code, day)
    where status = 'RUNNING';
-- The schedule sweeps a provider's day once: a daily run running or done is the one (a failed
-- one leaves the index, and the schedule tries again).
create unique index reconciliations_daily_key on reconciliations (provider_code, day)
    where trigger = 'DAILY' and status in ('RUNNING', 'DONE');

create table reconciliation_findings (
    -- A UUIDv7: the order findings were made in, and the pages' cursor.
    id text not null constraint reconciliation_findings_pk primary key,
    reconciliation_id text not null
        constraint reconciliation_findings_run_fk references reconciliations (id),
    kind text not null constraint reconciliation_findings_kind_check
        check (kind in ('matched', 'settled_late', 'paid_after_cancel', 'amount_mismatch',
            'unknown_pix', 'missing_at_psp', 'refund_mismatch', 'med_refund')),
    end_to_end_id text,
    txid text,
    -- As the PSP reports it (the pix's or the devolução's `valor`), and pixgate's where they
    -- differ.
    amount_centavos bigint,
    local_amount_centavos bigint,
    payment_intent_id text,
    refund_id text,
    detail text not null,
    created_at bigint not null
);

create index reconciliation_findings_run_idx on reconciliation_findings (reconciliation_id, id);
create index reconciliation_findings_kind_idx
    on reconciliation_findings (reconciliation_id, kind, id);
create index reconciliation_findings_e2e_idx
    on reconciliation_findings (reconciliation_id, end_to_end_id);
