"""The AES-GCM payload codec: round trips, key rotation, clear errors."""

import base64

import pytest
from temporalio.api.common.v1 import Payload
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.converter import DefaultFailureConverterWithEncodedAttributes

from encryption.codec import (
    ENCODING,
    EncryptionCodec,
    EncryptionKeyError,
    data_converter,
    main,
    new_key,
    parse_keys,
)

OLD, NEW = new_key("2025-01"), new_key("2026-11")


def plain(text: str) -> Payload:
    """A JSON payload as the converter writes it."""
    return Payload(metadata={"encoding": b"json/plain"}, data=f'"{text}"'.encode())


async def test_round_trip_hides_the_text() -> None:
    codec = EncryptionCodec(parse_keys(NEW))
    [encoded] = await codec.encode([plain("Add a power operation")])
    assert encoded.metadata["encoding"] == ENCODING
    assert encoded.metadata["encryption-key-id"] == b"2026-11"
    assert b"power" not in encoded.SerializeToString()
    assert await codec.decode([encoded]) == [plain("Add a power operation")]


async def test_rotation_old_keys_still_decrypt() -> None:
    before = EncryptionCodec(parse_keys(OLD))
    after = EncryptionCodec(parse_keys(f"{NEW},{OLD}"))
    [old] = await before.encode([plain("written last year")])
    [new] = await after.encode([plain("written today")])
    assert new.metadata["encryption-key-id"] == b"2026-11"
    assert await after.decode([old, new]) == [plain("written last year"), plain("written today")]
    with pytest.raises(EncryptionKeyError, match="2026-11.*not configured"):
        await before.decode([new])


async def test_a_large_payload_encrypted_again_keeps_its_ciphertext() -> None:
    codec = EncryptionCodec(parse_keys(NEW))
    large, small = plain("checkpoint " * 2000), plain("status")
    first_large, first_small = await codec.encode([large, small])
    again_large, again_small = await codec.encode([large, small])
    # One stored file for a repeated heartbeat checkpoint; small payloads get fresh nonces.
    assert again_large == first_large and again_small != first_small
    again_large.data = b"changed"  # what a caller does with its copy stays with it
    assert (await codec.encode([large]))[0] == first_large
    assert await codec.decode([first_large]) == [large]


async def test_unencrypted_payloads_pass_through() -> None:
    codec = EncryptionCodec(parse_keys(NEW))
    assert await codec.decode([plain("from before")]) == [plain("from before")]


async def test_a_wrong_key_with_the_same_id_is_refused() -> None:
    [encoded] = await EncryptionCodec(parse_keys(NEW)).encode([plain("x")])
    impostor = EncryptionCodec(parse_keys(new_key("2026-11")))
    with pytest.raises(EncryptionKeyError, match="does not decrypt"):
        await impostor.decode([encoded])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "holds no key"),
        ("just-a-key", "key_id=base64key"),
        ("k=not base64!", "not valid base64"),
        (f"k={base64.b64encode(b'short').decode()}", "16, 24 or 32"),
        (f"{NEW},{NEW}", "appears twice"),
    ],
)
def test_malformed_keys_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(EncryptionKeyError, match=message):
        parse_keys(spec)


def test_converter_encrypts_only_with_keys() -> None:
    assert data_converter(None) is pydantic_data_converter
    converter = data_converter(NEW)
    assert isinstance(converter.payload_codec, EncryptionCodec)
    assert converter.payload_converter_class is pydantic_data_converter.payload_converter_class
    # Failure messages and stack traces can quote ticket text: they are encrypted too.
    assert converter.failure_converter_class is DefaultFailureConverterWithEncodedAttributes


def test_new_key_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-key", "ops"]) == 0
    entry = capsys.readouterr().out.strip()
    assert list(parse_keys(entry)) == ["ops"]
    assert main(["bogus"]) == 2
