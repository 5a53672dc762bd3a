"""Drives a running `pixgate psp-sim` with pypix-api, a third-party API Pix client.

pypix-api was written against real PSPs (Banco do Brasil, Sicoob, Sicredi, Inter), not against
pixgate: if it can authenticate over mTLS, create, read, revise and remove a charge, read the pix
paid, ask for devoluções of it and read them back, do the same with charges with a due date
(cobv) and a batch of them (lotecobv), and manage a webhook here, the simulator speaks the
standard as PSPs do, not only as pixgate reads it.

Usage: python3 psp_sim_pypix.py <origin> <cert dir>
"""

import datetime
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
api = PspSim(
    oauth=oauth,
    scopes="cob.write cob.read cobv.write cobv.read lotecobv.write lotecobv.read"
    " pix.write pix.read webhook.write webhook.read",
)

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
# The pix received in a period (what a ledger sweep reads): this one among them, paged.
now = datetime.datetime.now(datetime.timezone.utc)
window = ((now - datetime.timedelta(hours=1)).isoformat(), (now + datetime.timedelta(hours=1)).isoformat())
listed = api.consultar_pix(*window, txid_presente=True, pagina_atual=0, itens_por_pagina=1000)
check(
    any(p["endToEndId"] == E2EID and p["devolucoes"] == [dev] for p in listed["pix"])
    and listed["parametros"]["paginacao"]["quantidadeTotalDeItens"] == len(listed["pix"]),
    "consultar_pix: the period's pix, with their devolucoes",
)
one = api.consultar_pix(*window, txid=TXID, itens_por_pagina=1)
check(
    [p["endToEndId"] for p in one["pix"]] == [E2EID]
    and one["parametros"]["paginacao"]["quantidadeDePaginas"] == 1,
    "consultar_pix by txid",
)
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

# A charge with a due date (cobv), ten days ahead: created, read, paid on its due date, its
# payer's view; revised and removed; refused; and a batch of two, one of them denied.
today = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=3)).date()
due = (today + datetime.timedelta(days=10)).isoformat()
COBV = "pypixapi0conformance0cobv00001"
cobv_body = {
    "calendario": {"dataDeVencimento": due, "validadeAposVencimento": 30},
    "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
    "valor": {
        "original": "200.00",
        "multa": {"modalidade": 2, "valorPerc": "2.00"},
        "juros": {"modalidade": 2, "valorPerc": "1.00"},
    },
    "chave": CHAVE,
    "solicitacaoPagador": "mensalidade",
}
created = api.criar_cobv(COBV, cobv_body)
check(
    created["status"] == "ATIVA" and created["loc"]["tipoCob"] == "cobv"
    and created["calendario"]["dataDeVencimento"] == due and "recebedor" in created,
    "criar_cobv: ATIVA, a cobv location, the receiver",
)
check(api.criar_cobv(COBV, cobv_body) == created, "criar_cobv again: the same charge")
check(api.consultar_cobv(COBV) == created, "consultar_cobv")
location = created["location"]
context = ssl.create_default_context(cafile=CA)
context.load_cert_chain(CERT, KEY)
with urllib.request.urlopen(
    f"{origin}{location[location.index('/'):]}?DPP={due}", context=context, timeout=10
) as response:
    view = json.load(response)
check(view["valor"]["final"] == "200.00", "the payer's view on the due date")
paid = control(f"/cobv/{COBV}/pay", {"date": due})
read = api.consultar_cobv(COBV)
check(
    read["status"] == "CONCLUIDA" and read["pix"][0]["endToEndId"] == paid["endToEndId"]
    and read["pix"][0]["componentesValor"] == {"original": {"valor": "200.00"}},
    "consultar_cobv after a payment on the due date: CONCLUIDA, the pix and its parts",
)
pix = api.consultar_pix_por_e2eid(paid["endToEndId"])
check(pix["txid"] == COBV and pix["valor"] == "200.00", "consultar_pix_por_e2eid of a cobv's pix")
dev = api.solicitar_devolucao_pix(paid["endToEndId"], "pypixcobvdev1", {"valor": "50.00"})
check(dev["status"] == "DEVOLVIDO", "solicitar_devolucao_pix of a cobv's pix")
refused(lambda: api.revisar_cobv(COBV, {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}), 400,
        "CobVOperacaoInvalida")

other_cobv = COBV[:-1] + "2"
api.criar_cobv(other_cobv, cobv_body)
revised = api.revisar_cobv(other_cobv, {"solicitacaoPagador": "outra mensalidade"})
check(revised["revisao"] == 1, "revisar_cobv: revisao incremented")
removed = api.revisar_cobv(other_cobv, {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"})
check(removed["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR", "revisar_cobv: removed")
refused(
    lambda: api.criar_cobv(COBV[:-1] + "3", {**cobv_body, "valor": {"original": "0.00"}}),
    400,
    "CobVOperacaoInvalida",
)
refused(lambda: api.consultar_cobv("z" * 30), 404, "CobVNaoEncontrada")

lote = {
    "descricao": "pypix-api",
    "cobsv": [
        {**cobv_body, "txid": COBV[:-1] + "4"},
        {**cobv_body, "txid": COBV[:-1] + "5", "valor": {"original": "0.00"}},
    ],
}
check(api.criar_lote_cobv("4242", lote) == {}, "criar_lote_cobv: 202, no body")
read = api.consultar_lote_cobv("4242")
check(
    [item["status"] for item in read["cobsv"]] == ["CRIADA", "NEGADA"]
    and read["cobsv"][1]["problema"]["violacoes"][0]["propriedade"] == "cobv.valor.original",
    "consultar_lote_cobv: CRIADA, and NEGADA with its problema",
)
check(api.consultar_cobv(COBV[:-1] + "4")["status"] == "ATIVA", "the batch's cobv is a cobv")

api.configurar_webhook(CHAVE, "https://127.0.0.1:9/pix-hooks")
webhook = api.consultar_webhook(CHAVE)
check(webhook["webhookUrl"] == "https://127.0.0.1:9/pix-hooks", "consultar_webhook")
check(api.excluir_webhook(CHAVE) is True, "excluir_webhook")
print("pypix-api: all checks passed")
