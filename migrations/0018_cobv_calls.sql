-- The PSP calls of a due-date charge (issue 32): `cobv` and its batches, `lotecobv`. A check
-- constraint cannot be altered in SQLite: the table is rebuilt, the same way on both, as 0008
-- did. The previous release writes only names this list keeps, so it runs beside this one.
create table psp_calls_0017 as select * from psp_calls;
drop table psp_calls;
create table psp_calls (
    id text not null constraint psp_calls_pk primary key,
    payment_intent_id text,
    refund_id text,
    provider_code text not null,
    gateway_alias text,
    operation text not null constraint psp_calls_operation_check
        check (operation in ('put_cob', 'get_cob', 'patch_cob', 'put_cobv', 'get_cobv',
            'patch_cobv', 'put_lotecobv', 'get_lotecobv', 'put_devolucao', 'get_devolucao',
            'get_pix')),
    outcome text not null constraint psp_calls_outcome_check
        check (outcome in ('success', 'refused', 'unauthorized', 'unavailable', 'timeout',
            'connect_failed', 'protocol_error', 'not_configured')),
    duration_ms bigint not null,
    error text,
    created_at bigint not null
);
insert into psp_calls (id, payment_intent_id, refund_id, provider_code, gateway_alias, operation,
        outcome, duration_ms, error, created_at)
    select id, payment_intent_id, refund_id, provider_code, gateway_alias, operation, outcome,
        duration_ms, error, created_at
    from psp_calls_0017;
drop table psp_calls_0017;
create index psp_calls_intent_idx on psp_calls (payment_intent_id, created_at);
create index psp_calls_created_idx on psp_calls (created_at);
