"""Drives a running `pixgate psp-sim` with pypix-api, a third-party API Pix client.

pypix-api was written against real PSPs (Banco do Brasil, Sicoob, Sicredi, Inter), not against
pixgate: if it can authenticate over mTLS, create, read, revise and remove a charge, read the pix
paid, ask for devoluções of it and read them back, and manage a webhook here, the simulator speaks
the standard as PSPs do, not only as pixgate reads it.

Usage: python3 psp_sim_pypix.py <origin> <cert dir>
"""

import json
import os
import ssl
import sys
import urllib.request

from pypix_api.auth.oauth2 import OAuth2Client
from pypix_api.banks.base import BankPixAPIBase
from pypix_api.exceptions import PixAPIException

origin, certs = sys.argv[1], sys.argv[2]
CA = f"{certs}/ca.pem"
CERT, KEY = f"{certs}/client.pem", f"{certs}/client-key.pem"
# requests lets these variables override a session's `verify`: point them at the simulator's CA.
os.environ["REQUESTS_CA_BUNDLE"] = os.environ["CURL_CA_BUNDLE"] = CA
TXID = "pypixapi0conformance0000000001"
CHAVE = "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"


class PspSim(BankPixAPIBase):
    """The simulator as one more bank: only its URLs differ."""

    BASE_URL = f"{origin}/api/v2"
    TOKEN_URL = f"{origin}/oauth/token"

    def get_bank_code(self) -> str:
        # Unused: scopes are passed explicitly.
        return "000"

    def get_base_url(self) -> str:
        return self.BASE_URL


def control(path: str, body: dict | None = None, method: str = "POST") -> dict:
    """A control route of the simulator, over the same mTLS."""
    context = ssl.create_default_context(cafile=CA)
    context.load_cert_chain(CERT, KEY)
    request = urllib.request.Request(
        f"{origin}/_sim{path}",
        data=json.dumps(body or {}).encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, context=context, timeout=10) as response:
        return json.load(response)


def refused(call, status: int, name: str) -> str:
    """Runs `call`, which must raise the standard's error `name` with `status`; its message."""
    try:
        call()
    except PixAPIException as e:
        check(e.status == status and e.type.endswith(f"/{name}"), f"{status} {name}: {e}")
        return str(e)
    check(False, f"expected {status} {name}, got no error")
    return ""


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


oauth = OAuth2Client(
    token_url=PspSim.TOKEN_URL,
    client_id="psp-sim-client",
    client_secret="psp-sim-secret",
    cert=CERT,
    pvk=KEY,
)
api = PspSim(oauth=oauth, scopes="cob.write cob.read pix.write pix.read webhook.write webhook.read")

body = {
    "calendario": {"expiracao": 3600},
    "devedor": {"cpf": "52998224725", "nome": "Ana Souza"},
    "valor": {"original": "129.90"},
    "chave": CHAVE,
    "solicitacaoPagador": "pedido 10042",
}
created = api.criar_cob(TXID, body)
check(created["status"] == "ATIVA" and created["revisao"] == 0, "criar_cob: ATIVA, revisao 0")
check(created["pixCopiaECola"].startswith("000201"), "criar_cob: pixCopiaECola is a BR Code")
again = api.criar_cob(TXID, body)
check(again == created, "criar_cob again with the same body: the same charge")

read = api.consultar_cob(TXID)
check(read["txid"] == TXID and read["valor"]["original"] == "129.90", "consultar_cob")

paid = control(f"/cob/{TXID}/pay")
read = api.consultar_cob(TXID)
check(
    read["status"] == "CONCLUIDA" and read["pix"][0]["endToEndId"] == paid["endToEndId"],
    "consultar_cob after a payment: CONCLUIDA with pix[]",
)

# The pix, and devoluções of it: partial, read back, never more than was paid.
E2EID = paid["endToEndId"]
pix = api.consultar_pix_por_e2eid(E2EID)
check(
    pix["endToEndId"] == E2EID and pix["valor"] == "129.90" and "devolucoes" not in pix,
    "consultar_pix_por_e2eid",
)
dev = api.solicitar_devolucao_pix(E2EID, "pypixdev1", {"valor": "29.90", "descricao": "troca"})
check(
    dev["id"] == "pypixdev1" and dev["valor"] == "29.90" and dev["status"] == "DEVOLVIDO"
    and len(dev["rtrId"]) == 32 and "liquidacao" in dev["horario"],
    "solicitar_devolucao_pix: DEVOLVIDO at once",
)
check(api.consultar_devolucao_pix(E2EID, "pypixdev1") == dev, "consultar_devolucao_pix")
check(api.consultar_pix_por_e2eid(E2EID)["devolucoes"] == [dev], "the pix lists its devolucoes")
check(api.consultar_cob(TXID)["pix"][0]["devolucoes"] == [dev], "so does the charge's pix[]")
# More than is left of the pix; an id used already (refused even with the same body, as
# v2.9.0 does: a client reads it back instead); unknown devolução; unknown pix.
refused(
    lambda: api.solicitar_devolucao_pix(E2EID, "pypixdev2", {"valor": "100.01"}),
    400,
    "PixDevolucaoInvalida",
)
refused(
    lambda: api.solicitar_devolucao_pix(
        E2EID, "pypixdev1", {"valor": "29.90", "descricao": "troca"}
    ),
    400,
    "PixDevolucaoInvalida",
)
refused(lambda: api.consultar_devolucao_pix(E2EID, "pypixdev9"), 404, "PixDevolucaoNaoEncontrada")
refused(lambda: api.consultar_pix_por_e2eid("E" + "0" * 31), 404, "PixNaoEncontrado")

# Settled later: EM_PROCESSAMENTO, then DEVOLVIDO (here through the control route).
control("/switches", {"devolucoes": {"settleAfterMs": 3600000}}, method="PUT")
dev = api.solicitar_devolucao_pix(E2EID, "pypixdev2", {"valor": "100.00", "natureza": "ORIGINAL"})
check(dev["status"] == "EM_PROCESSAMENTO", "a devolução in processing")
control(f"/pix/{E2EID}/devolucao/pypixdev2/settle")
dev = api.consultar_devolucao_pix(E2EID, "pypixdev2")
check(dev["status"] == "DEVOLVIDO", "read again: DEVOLVIDO")
control("/switches", {"devolucoes": {"settleAfterMs": 0}}, method="PUT")

other = TXID[:-1] + "2"
api.criar_cob(other, body)
revised = api.revisar_cob(other, {"solicitacaoPagador": "pedido 10043"})
check(revised["revisao"] == 1, "revisar_cob: revisao incremented")
removed = api.revisar_cob(other, {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"})
check(removed["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR", "revisar_cob: removed")

try:
    api.consultar_cob("z" * 30)
    check(False, "consultar_cob of an unknown txid raises")
except PixAPIException as e:
    check(getattr(e, "status_code", None) == 404 or "404" in str(e), f"unknown txid: {e}")

try:
    api.criar_cob(TXID[:-1] + "3", {**body, "valor": {"original": "0.00"}})
    check(False, "a zero amount raises")
except PixAPIException as e:
    check("400" in str(e) or getattr(e, "status_code", None) == 400, f"zero amount: {e}")

api.configurar_webhook(CHAVE, "https://127.0.0.1:9/pix-hooks")
webhook = api.consultar_webhook(CHAVE)
check(webhook["webhookUrl"] == "https://127.0.0.1:9/pix-hooks", "consultar_webhook")
check(api.excluir_webhook(CHAVE) is True, "excluir_webhook")
print("pypix-api: all checks passed")
