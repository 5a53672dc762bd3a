-- Policy components managed per store: immutable versions (named by sha256, per step), the
-- version each store runs per step (with the one before it and an optional shadow
-- candidate), the activation history, kill-switch settings and shadow comparisons.

create table component_versions (
    step text not null constraint component_versions_step_check
        check (step in ('policy', 'provider', 'economics')),
    version text not null,
    -- 'bundled' for components that shipped inside a pixgate binary (kept so that charges
    -- recorded with an older build still replay exactly), 'uploaded' for the others.
    source text not null constraint component_versions_source_check
        check (source in ('uploaded', 'bundled')),
    size_bytes bigint not null,
    wasm bytea not null,
    created_at bigint not null,
    constraint component_versions_pk primary key (step, version)
);

-- No row: the store runs the bundled component of that step.
create table store_components (
    store_id text not null constraint store_components_store_fk references stores (id),
    step text not null constraint store_components_step_check
        check (step in ('policy', 'provider', 'economics')),
    -- 'bundled' or a component_versions.version of this step.
    active_version text not null,
    previous_version text,
    activated_at bigint,
    candidate_version text,
    candidate_since bigint,
    updated_at bigint not null,
    constraint store_components_pk primary key (store_id, step)
);

create table component_activations (
    id text not null constraint component_activations_pk primary key,
    store_id text not null constraint component_activations_store_fk references stores (id),
    step text not null,
    version text not null,
    previous_version text,
    action text not null constraint component_activations_action_check
        check (action in ('activate', 'rollback', 'kill_switch')),
    reason text,
    created_at bigint not null
);

create index component_activations_store_idx on component_activations (store_id, created_at);

-- No row: the defaults (on, 50 % errors, 60 s window, 20 calls).
create table store_kill_switch (
    store_id text not null constraint store_kill_switch_pk primary key
        constraint store_kill_switch_store_fk references stores (id),
    enabled bigint not null constraint store_kill_switch_enabled_check check (enabled in (0, 1)),
    error_rate_percent bigint not null
        constraint store_kill_switch_rate_check check (error_rate_percent between 1 and 100),
    window_seconds bigint not null
        constraint store_kill_switch_window_check check (window_seconds between 10 and 86400),
    min_calls bigint not null constraint store_kill_switch_min_calls_check check (min_calls >= 1),
    updated_at bigint not null
);

create table shadow_results (
    id text not null constraint shadow_results_pk primary key,
    store_id text not null,
    step text not null,
    candidate_version text not null,
    active_version text not null,
    payment_intent_id text not null,
    changed bigint not null,
    -- JSON array of change kinds.
    kinds text not null,
    error_code text,
    before_outcome text not null,
    after_outcome text not null,
    created_at bigint not null
);

create index shadow_results_candidate_idx
    on shadow_results (store_id, step, candidate_version, created_at);
