-- Canaries (DESIGN.md section 14): a share of a store's new charges runs a step's candidate
-- version instead of the active one. One row per canary, running (no `ended_at`) or ended;
-- at most one runs per store and step. `canary_calls` is what its threshold and its view
-- are computed from, so every instance sharing the database judges the same numbers.

create table component_canaries (
    id text not null constraint component_canaries_pk primary key,
    store_id text not null constraint component_canaries_store_fk references stores (id),
    step text not null constraint component_canaries_step_check
        check (step in ('policy', 'provider', 'economics')),
    version text not null,
    -- The share of the store's charges, in hundredths of a percent: 10 (0.1 %) to 10000.
    basis_points bigint not null
        constraint component_canaries_share_check check (basis_points between 10 and 10000),
    window_seconds bigint not null
        constraint component_canaries_window_check check (window_seconds between 10 and 86400),
    min_calls bigint not null
        constraint component_canaries_min_calls_check check (min_calls between 1 and 1000000),
    max_error_rate_percent bigint not null
        constraint component_canaries_error_rate_check
        check (max_error_rate_percent between 1 and 100),
    -- No limit when null.
    max_changed_rate_percent bigint
        constraint component_canaries_changed_rate_check
        check (max_changed_rate_percent between 1 and 100),
    started_at bigint not null,
    started_by text not null,
    ended_at bigint,
    -- How it ended: promoted, ended (by an operator), error_rate or changed_rate (by itself),
    -- replaced (a new canary of the step), superseded (the active version changed).
    end_kind text constraint component_canaries_end_kind_check
        check (end_kind in ('promoted', 'ended', 'error_rate', 'changed_rate', 'replaced',
                            'superseded')),
    ended_reason text
);

create unique index component_canaries_running_idx
    on component_canaries (store_id, step) where ended_at is null;
create index component_canaries_store_idx on component_canaries (store_id, started_at);

-- One call of a canary's version: failed in the sandbox (the charge answered 503), or
-- resolved and compared off the request path with the active version (`changed`).
create table canary_calls (
    id text not null constraint canary_calls_pk primary key,
    canary_id text not null constraint canary_calls_canary_fk
        references component_canaries (id),
    payment_intent_id text,
    failed bigint not null constraint canary_calls_failed_check check (failed in (0, 1)),
    changed bigint not null constraint canary_calls_changed_check check (changed in (0, 1)),
    error_code text,
    created_at bigint not null
);

create index canary_calls_canary_idx on canary_calls (canary_id, created_at);
-- The purge job deletes calls older than the trace retention, oldest first.
create index canary_calls_created_idx on canary_calls (created_at);
