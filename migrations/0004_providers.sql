-- PSP providers: where a provider's API Pix is and how pixgate authenticates to it. Gateways
-- name their provider by `gateways.provider_code`; there is deliberately no foreign key, so
-- the sandbox catalog's gateways (`sandbox-a`, `sandbox-b`) keep routing SHADOW stores on a
-- database that has no provider rows. LIVE execution needs the provider to exist here.
-- Secrets (`*_sealed`) are AES-256-GCM under the master key: base64(nonce || ciphertext).

create table providers (
    id text not null constraint providers_pk primary key,
    code text not null constraint providers_code_key unique,
    name text not null,
    -- Without a trailing slash; https, or http on a loopback host only.
    api_base_url text not null,
    -- Null: `{api_base_url}/oauth/token`.
    token_url text,
    client_id text not null,
    client_secret_sealed text not null,
    pix_key text not null,
    -- PEM text. The CA and the client certificate are not secret; the client key is.
    ca_pem text,
    client_cert_pem text,
    client_key_sealed text,
    -- The unguessable token in this provider's callback path (DESIGN.md section 10), sealed:
    -- pixgate re-registers the callback URL with the PSP when the provider changes.
    callback_token_sealed text not null,
    active bigint not null default 1 constraint providers_active_check check (active in (0, 1)),
    created_at bigint not null,
    updated_at bigint not null,
    -- A certificate and its key come together.
    constraint providers_client_identity_check
        check ((client_cert_pem is null) = (client_key_sealed is null))
);
