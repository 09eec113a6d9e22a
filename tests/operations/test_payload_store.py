"""The payload store: content-addressed files, idempotent writes, clear errors, codec first."""

import argparse
import base64
import json
from pathlib import Path

import httpx
import pytest
from google.protobuf import json_format
from pydantic import SecretStr
from temporalio.api.common.v1 import Payload
from temporalio.converter import StorageDriverClaim, StorageDriverRetrieveContext

from cli.terminal import run
from config import Settings
from encryption.codec import ENCODING, new_key
from encryption.server import create_app
from encryption.store import (
    DRIVER_NAME,
    SETTING,
    FilePayloadStore,
    PayloadStoreError,
    reference_in,
)
from graphs.schemas import FileChange
from temporal.client import converter_for

LARGE = FileChange(path="calc/big.py", content="TOTAL = 1  # marker-line\n" * 4000)  # ~100 KB


def settings(tmp_path: Path, threshold_kib: int = 32, encrypted: bool = False) -> Settings:
    """Settings with the store in `tmp_path`; encrypted with a fresh key if asked."""
    keys = SecretStr(new_key("k1")) if encrypted else None
    return Settings(
        payload_store_dir=tmp_path / "payloads",
        payload_store_threshold_kib=threshold_kib,
        encryption_keys=keys,
        _env_file=None,  # type: ignore[call-arg]
    )


def blobs(directory: Path) -> list[Path]:
    """Every file in the store, temporary ones included."""
    return sorted(p for p in directory.rglob("*") if p.is_file())


async def store_one(store: FilePayloadStore, payload: Payload) -> StorageDriverClaim:
    [claim] = await store.store(None, [payload])  # type: ignore[arg-type]
    return claim


async def test_a_payload_is_stored_once_under_its_hash(tmp_path: Path) -> None:
    store = FilePayloadStore(tmp_path)
    payload = Payload(metadata={"encoding": b"json/plain"}, data=b'"' + b"x" * 50_000 + b'"')
    first = await store_one(store, payload)
    again = await store_one(store, payload)
    digest = first.claim_data["hash_value"]
    assert first == again and first.claim_data["hash_algorithm"] == "sha256"
    assert blobs(tmp_path) == [tmp_path / digest[:2] / digest]  # no temporary file left over
    [back] = await store.retrieve(StorageDriverRetrieveContext(), [first])
    assert back == payload


async def test_missing_damaged_and_malformed_payloads_are_explained(tmp_path: Path) -> None:
    store = FilePayloadStore(tmp_path / "payloads")
    claim = await store_one(store, Payload(data=b"the plan"))
    digest = claim.claim_data["hash_value"]
    path = store.path_of(digest)
    context = StorageDriverRetrieveContext()

    path.write_bytes(b"something else")
    with pytest.raises(PayloadStoreError, match="damaged"):
        await store.retrieve(context, [claim])

    path.unlink()
    with pytest.raises(PayloadStoreError) as missing:
        await store.retrieve(context, [claim])
    assert str(path) in str(missing.value) and SETTING in str(missing.value)

    traversal = StorageDriverClaim({"hash_algorithm": "sha256", "hash_value": "../../etc/passwd"})
    with pytest.raises(PayloadStoreError, match="malformed payload reference"):
        await store.retrieve(context, [traversal])


@pytest.mark.parametrize("encrypted", [False, True])
async def test_large_payloads_become_references_small_ones_stay(
    tmp_path: Path, encrypted: bool
) -> None:
    converter = converter_for(settings(tmp_path, encrypted=encrypted))
    small, large = await converter.encode([FileChange(path="a.py", content="x = 1\n"), LARGE])
    assert reference_in(small) is None
    reference = reference_in(large)
    assert reference is not None and reference.driver_name == DRIVER_NAME
    assert large.ByteSize() < 1024 and large.external_payloads[0].size_bytes > 100_000
    [again] = await converter.encode([LARGE])
    assert again == large  # the same value stored again is the same file
    [blob] = blobs(tmp_path / "payloads")
    stored = Payload.FromString(blob.read_bytes())
    # The codec runs before the store: with keys, the file holds only ciphertext.
    assert (stored.metadata["encoding"] == ENCODING) is encrypted
    assert (b"marker-line" in blob.read_bytes()) is not encrypted
    assert await converter.decode([small, large], [FileChange, FileChange]) == [
        FileChange(path="a.py", content="x = 1\n"),
        LARGE,
    ]


async def test_threshold_zero_stores_nothing_but_still_reads_references(tmp_path: Path) -> None:
    [reference] = await converter_for(settings(tmp_path)).encode([LARGE])
    off = converter_for(settings(tmp_path, threshold_kib=0))
    [inline] = await off.encode([LARGE])
    assert reference_in(inline) is None and inline.ByteSize() > 100_000
    assert await off.decode([reference], [FileChange]) == [LARGE]


async def test_a_client_without_the_shared_folder_names_it(tmp_path: Path) -> None:
    [reference] = await converter_for(settings(tmp_path / "worker")).encode([LARGE])
    elsewhere = converter_for(settings(tmp_path / "laptop"))
    with pytest.raises(PayloadStoreError) as missing:
        await elsewhere.decode([reference], [FileChange])
    assert str(tmp_path / "laptop" / "payloads") in str(missing.value)
    assert SETTING in str(missing.value)


def proto_json(payloads: list[Payload]) -> dict[str, object]:
    """Payloads as the Web UI sends them to the codec server."""
    return {"payloads": [json.loads(json_format.MessageToJson(p)) for p in payloads]}


@pytest.mark.parametrize("encrypted", [False, True])
async def test_the_codec_server_shows_stored_payloads_whole(
    tmp_path: Path, encrypted: bool
) -> None:
    config = settings(tmp_path, encrypted=encrypted)
    [reference] = await converter_for(config).encode([LARGE])
    transport = httpx.ASGITransport(app=create_app(config))
    async with httpx.AsyncClient(transport=transport, base_url="http://codec") as http:
        decoded = await http.post("/decode", json=proto_json([reference]))
        assert decoded.status_code == 200
        [payload] = decoded.json()["payloads"]
        assert base64.b64decode(payload["metadata"]["encoding"]) == b"json/plain"
        assert FileChange.model_validate_json(base64.b64decode(payload["data"])) == LARGE
        for blob in blobs(tmp_path / "payloads"):
            blob.unlink()
        gone = await http.post("/decode", json=proto_json([reference]))
    assert gone.status_code == 422 and SETTING in gone.json()["detail"]


def test_the_command_line_says_which_payload_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def reads_a_missing_payload(args: argparse.Namespace) -> None:
        raise PayloadStoreError(f"stored payload 0a1b is missing: share the folder {SETTING}")

    assert run(reads_a_missing_payload, argparse.Namespace()) == 1
    error = capsys.readouterr().err.strip()
    assert error == f"error: stored payload 0a1b is missing: share the folder {SETTING}"
