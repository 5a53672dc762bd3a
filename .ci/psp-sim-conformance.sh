#!/usr/bin/env bash
# Checks `pixgate psp-sim` against the Central Bank's API Pix from two sides that are not
# pixgate's own code: schemathesis fuzzes it with every check against .ci/apipix-subset.yaml
# (hand-written from the standard's definitions), and pypix-api, a third-party API Pix client,
# drives a charge, its devoluções and a webhook through it (.ci/psp_sim_pypix.py). Both over
# https with mTLS, on loopback, with the certificates the simulator generates. The allowances
# (and the pix the devolução operations are fuzzed on, and the cobv read and revised) are
# explained in .ci/schemathesis-psp-sim.toml, as are the Pix Automático resources seeded for it.
# Usage: .ci/psp-sim-conformance.sh <pixgate binary>
# SCHEMATHESIS_MAX_EXAMPLES (default 60) bounds the test cases per operation and phase.
set -euo pipefail
bin=${1:?usage: $0 <pixgate binary>}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$work"' EXIT

# Pinned: the check names and the config format are this version's; pypix-api's class layout.
schemathesis --version 2>/dev/null | grep -q ' 4.32.5$' ||
  python3 -m pip install --quiet 'schemathesis==4.32.5'
python3 -c 'import importlib.metadata as m; assert m.version("pypix-api") == "0.14.0"' 2>/dev/null ||
  python3 -m pip install --quiet 'pypix-api==0.14.0'

certs="$work/certs"
"$bin" psp-sim --listen 127.0.0.1:0 --mtls --cert-dir "$certs" >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 1 300); do
  grep -q '^psp-sim: ready' "$work/out" 2>/dev/null && break
  sleep 0.1
done
grep -q '^psp-sim: ready' "$work/out" || { cat "$work/err"; echo "psp-sim did not start"; exit 1; }
origin=$(sed -n 's/^psp-sim: listening on //p' "$work/out")
tls=(--cacert "$certs/ca.pem" --cert "$certs/client.pem" --key "$certs/client-key.pem")

token=$(curl -sS "${tls[@]}" -u psp-sim-client:psp-sim-secret \
  -d grant_type=client_credentials "$origin/oauth/token" |
  sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "no access token"; exit 1; }

# The pix schemathesis asks devoluções of: a charge of the largest amount, paid.
seed=pspsimconformance0seed0000001
curl -sSf "${tls[@]}" -X PUT "$origin/api/v2/cob/$seed" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d '{"calendario": {"expiracao": 86400}, "valor": {"original": "9999999999.99"},
       "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}' >/dev/null
PSP_SIM_E2EID=$(curl -sSf "${tls[@]}" -X POST "$origin/_sim/cob/$seed/pay" \
  -H 'Content-Type: application/json' -d '{}' |
  sed -n 's/.*"endToEndId":"\([^"]*\)".*/\1/p')
[ -n "$PSP_SIM_E2EID" ] || { echo "the seed charge was not paid"; exit 1; }
export PSP_SIM_E2EID

# The charge with a due date schemathesis reads and revises: due in a year, so that the run
# never outlives it.
PSP_SIM_COBV_TXID=pspsimconformance0cobv000001
due=$(python3 -c 'import datetime; print(datetime.date.today() + datetime.timedelta(days=365))')
curl -sSf "${tls[@]}" -X PUT "$origin/api/v2/cobv/$PSP_SIM_COBV_TXID" \
  -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"calendario": {"dataDeVencimento": "'"$due"'"}, "valor": {"original": "100.00"},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}' >/dev/null ||
  { echo "the seed cobv was not created"; exit 1; }
export PSP_SIM_COBV_TXID

# Pix Automático (see .ci/schemathesis-psp-sim.toml): a location and a recurrence CRIADA with
# it (read and revised); a request waiting at the payer's bank for another; a recurrence the
# payer approved, with two recurring charges: one due in a year (read and cancelled), one
# whose first attempt the payer's PSP rejected (retries asked of it).
api() {
  curl -sSf "${tls[@]}" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$@"
}
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
day() { python3 -c 'import datetime, sys; print(datetime.date.today() + datetime.timedelta(days=int(sys.argv[1])))' "$1"; }
rec_body() { # contrato, politicaRetentativa, then extra members
  echo '{"vinculo": {"contrato": "'"$1"'", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}},
         "calendario": {"dataInicial": "'"$(day 30)"'", "periodicidade": "MENSAL"},
         "valor": {"valorRec": "49.90"}, "politicaRetentativa": "'"$2"'"'"${3:+, $3}"'}'
}
cobr_body() { # idRec, dataDeVencimento
  echo '{"idRec": "'"$1"'", "calendario": {"dataDeVencimento": "'"$2"'"}, "valor": {"original": "49.90"},
         "recebedor": {"agencia": "0001", "conta": "123456", "tipoConta": "CORRENTE"}}'
}
PSP_SIM_LOCREC_ID=$(api -X POST "$origin/api/v2/locrec" | field id)
PSP_SIM_IDREC=$(api "$origin/api/v2/rec" -d "$(rec_body conformance-1 NAO_PERMITE "\"loc\": $PSP_SIM_LOCREC_ID")" | field idRec)
waiting=$(api "$origin/api/v2/rec" -d "$(rec_body conformance-2 NAO_PERMITE)" | field idRec)
PSP_SIM_IDSOLICREC=$(api "$origin/api/v2/solicrec" -d '{"idRec": "'"$waiting"'",
    "calendario": {"dataExpiracaoSolicitacao": "'"$(day 30)"'T12:00:00Z"},
    "destinatario": {"conta": "550689", "ispbParticipante": "91193552", "cpf": "45164632481"}}' |
  field idSolicRec)
loc=$(api -X POST "$origin/api/v2/locrec" | field id)
PSP_SIM_IDREC_APROVADA=$(api "$origin/api/v2/rec" -d "$(rec_body conformance-3 PERMITE_3R_7D "\"loc\": $loc")" | field idRec)
curl -sSf "${tls[@]}" -X POST "$origin/_sim/rec/$PSP_SIM_IDREC_APROVADA/approve" >/dev/null
PSP_SIM_COBR_TXID=pspsimconformance0cobr000001
api -X PUT "$origin/api/v2/cobr/$PSP_SIM_COBR_TXID" \
  -d "$(cobr_body "$PSP_SIM_IDREC_APROVADA" "$(day 365)")" >/dev/null
PSP_SIM_COBR_RETRY_TXID=pspsimconformance0cobr000002
retry_due=$(day 400)
api -X PUT "$origin/api/v2/cobr/$PSP_SIM_COBR_RETRY_TXID" \
  -d "$(cobr_body "$PSP_SIM_IDREC_APROVADA" "$retry_due")" >/dev/null
curl -sSf "${tls[@]}" -X POST "$origin/_sim/cobr/$PSP_SIM_COBR_RETRY_TXID/attempt" \
  -H 'Content-Type: application/json' -d '{"outcome": "reject", "code": "AM02"}' >/dev/null
# Retry dates inside the 7 days after that due date (after the first attempt's, which a
# weekend or holiday may have moved up to 4 days on).
after() { python3 -c 'import datetime, sys; print(datetime.date.fromisoformat(sys.argv[1]) + datetime.timedelta(days=int(sys.argv[2])))' "$1" "$2"; }
PSP_SIM_RETRY_DATE_1=$(after "$retry_due" 5)
PSP_SIM_RETRY_DATE_2=$(after "$retry_due" 6)
PSP_SIM_RETRY_DATE_3=$(after "$retry_due" 7)
# A first payment date and a request's expiry the run never outlives.
PSP_SIM_REC_START=$(day 30)
PSP_SIM_SOLICREC_EXPIRY="$(day 20)T12:00:00Z"
for seed in "$PSP_SIM_LOCREC_ID" "$PSP_SIM_IDREC" "$PSP_SIM_IDSOLICREC" "$PSP_SIM_IDREC_APROVADA"; do
  [ -n "$seed" ] || { echo "the Pix Automático seeds were not created"; exit 1; }
done
export PSP_SIM_LOCREC_ID PSP_SIM_IDREC PSP_SIM_IDSOLICREC PSP_SIM_IDREC_APROVADA \
  PSP_SIM_COBR_TXID PSP_SIM_COBR_RETRY_TXID PSP_SIM_RETRY_DATE_1 PSP_SIM_RETRY_DATE_2 \
  PSP_SIM_RETRY_DATE_3 PSP_SIM_REC_START PSP_SIM_SOLICREC_EXPIRY
# Schemathesis expands ${VAR} in parameters but not in dictionaries, which name seeds too: the
# run reads the settings with every ${PSP_SIM_...} written out.
config="$work/schemathesis-psp-sim.toml"
python3 - "$here/schemathesis-psp-sim.toml" "$config" <<'EOF'
import os, re, sys
text = open(sys.argv[1]).read()
seeds = re.sub(r"\$\{(PSP_SIM_[A-Z0-9_]+)\}", lambda m: os.environ[m.group(1)], text)
open(sys.argv[2], "w").write(seeds)
EOF

status=0
echo "== schemathesis against psp-sim ($origin/api/v2)"
# From the scratch directory: schemathesis keeps its crash cache in the working directory.
# One worker: see .ci/schemathesis.sh.
(cd "$work" && schemathesis --config-file "$config" \
  run "$here/apipix-subset.yaml" \
  --url "$origin/api/v2" \
  --checks all \
  --header "Authorization: Bearer $token" \
  --tls-verify "$certs/ca.pem" \
  --request-cert "$certs/client.pem" \
  --request-cert-key "$certs/client-key.pem" \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-60}" \
  --workers 1 \
  --no-color) || status=1

echo "== pypix-api against psp-sim"
python3 "$here/psp_sim_pypix.py" "$origin" "$certs" || status=1

if grep -q 'internal error' "$work/err"; then
  echo "the simulator logged internal errors:"; grep 'internal error' "$work/err" | head -20
  status=1
fi
exit $status
