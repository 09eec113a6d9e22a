"""Payload encryption: an AES-GCM codec with key ids, so old keys still decrypt after rotation.

`python -m encryption.codec new-key [KEY_ID]` prints a fresh `key_id=base64key` entry for
`TICKETSMITH_ENCRYPTION_KEYS`.
"""

import base64
import binascii
import dataclasses
import hashlib
import os
import sys
from collections import OrderedDict
from collections.abc import Sequence
from datetime import date

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.converter import (
    DataConverter,
    DefaultFailureConverterWithEncodedAttributes,
    ExternalStorage,
    PayloadCodec,
)

ENCODING = b"binary/encrypted"
KEY_ID = "encryption-key-id"
NONCE_BYTES = 12
# Large payloads encrypted again unchanged (a heartbeat repeating its checkpoint, a replayed
# workflow) get their earlier ciphertext back, so the payload store keeps one file for them.
REUSE_FROM_BYTES = 16 * 1024
REUSE_UP_TO_BYTES = 32 * 2**20


class EncryptionKeyError(ValueError):
    """The encryption keys setting is malformed, or a payload's key is not configured."""


def parse_keys(spec: str) -> dict[str, bytes]:
    """Read `id=base64key,id=base64key`; the first key encrypts, every key decrypts."""
    keys: dict[str, bytes] = {}
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        key_id, sep, encoded = entry.partition("=")
        key_id = key_id.strip()
        if not sep or not key_id:
            raise EncryptionKeyError(
                "TICKETSMITH_ENCRYPTION_KEYS entries look like `key_id=base64key`, "
                "comma-separated, newest first; `python -m encryption.codec new-key` makes one"
            )
        try:
            key = base64.b64decode(encoded.strip(), validate=True)
        except binascii.Error as err:
            raise EncryptionKeyError(f"encryption key {key_id!r} is not valid base64") from err
        if len(key) not in (16, 24, 32):
            raise EncryptionKeyError(
                f"encryption key {key_id!r} has {len(key)} bytes; AES-GCM needs 16, 24 or 32"
            )
        if key_id in keys:
            raise EncryptionKeyError(f"encryption key id {key_id!r} appears twice")
        keys[key_id] = key
    if not keys:
        raise EncryptionKeyError("TICKETSMITH_ENCRYPTION_KEYS is set but holds no key")
    return keys


def new_key(key_id: str | None = None) -> str:
    """A fresh 256-bit key as a settings entry."""
    key = base64.b64encode(AESGCM.generate_key(bit_length=256)).decode()
    return f"{key_id or date.today().isoformat()}={key}"


class EncryptionCodec(PayloadCodec):
    """Encrypts every payload with the current key; decrypts with whichever key id it names."""

    def __init__(self, keys: dict[str, bytes]) -> None:
        if not keys:
            raise EncryptionKeyError("the encryption codec needs at least one key")
        self._ciphers = {key_id: AESGCM(key) for key_id, key in keys.items()}
        self.current_key_id = next(iter(keys))
        self._recent: OrderedDict[bytes, Payload] = OrderedDict()  # sha256 of plaintext -> it
        self._recent_bytes = 0

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        """Encrypt each whole payload (metadata included) with the current key."""
        return [self._encrypt(p.SerializeToString(deterministic=True)) for p in payloads]

    def _encrypt(self, plain: bytes) -> Payload:
        reusable = len(plain) >= REUSE_FROM_BYTES
        digest = hashlib.sha256(plain).digest() if reusable else b""
        if digest in self._recent:
            self._recent.move_to_end(digest)
            again = Payload()
            again.CopyFrom(self._recent[digest])  # a copy: callers may change what they get
            return again
        nonce = os.urandom(NONCE_BYTES)
        data = nonce + self._ciphers[self.current_key_id].encrypt(nonce, plain, None)
        metadata = {"encoding": ENCODING, KEY_ID: self.current_key_id.encode()}
        encrypted = Payload(metadata=metadata, data=data)
        if reusable:
            self._recent[digest] = encrypted
            self._recent_bytes += len(data)
            while self._recent_bytes > REUSE_UP_TO_BYTES:
                self._recent_bytes -= len(self._recent.popitem(last=False)[1].data)
        return encrypted

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        """Decrypt encrypted payloads; pass others (written before encryption) through."""
        decoded = []
        for payload in payloads:
            if payload.metadata.get("encoding") != ENCODING:
                decoded.append(payload)
                continue
            key_id = payload.metadata.get(KEY_ID, b"").decode()
            cipher = self._ciphers.get(key_id)
            if cipher is None:
                known = ", ".join(self._ciphers)
                raise EncryptionKeyError(
                    f"payload encrypted with key {key_id!r}, which is not configured "
                    f"(configured: {known}); keep retired keys in TICKETSMITH_ENCRYPTION_KEYS"
                )
            try:
                plain = cipher.decrypt(payload.data[:NONCE_BYTES], payload.data[NONCE_BYTES:], None)
            except InvalidTag as err:
                raise EncryptionKeyError(f"payload does not decrypt with key {key_id!r}") from err
            decoded.append(Payload.FromString(plain))
        return decoded


def data_converter(
    encryption_keys: str | None, storage: ExternalStorage | None = None
) -> DataConverter:
    """The pydantic converter, encrypting payloads and failure messages when keys are given.

    With `storage`, large payloads go to it after encryption and the history keeps a reference.
    """
    converter = pydantic_data_converter
    if storage is not None:
        converter = dataclasses.replace(converter, external_storage=storage)
    if not encryption_keys:
        return converter
    return dataclasses.replace(
        converter,
        payload_codec=EncryptionCodec(parse_keys(encryption_keys)),
        failure_converter_class=DefaultFailureConverterWithEncodedAttributes,
    )


def main(argv: list[str]) -> int:
    """Command line: `new-key [KEY_ID]`."""
    if not argv or argv[0] != "new-key" or len(argv) > 2:
        sys.stderr.write("usage: python -m encryption.codec new-key [KEY_ID]\n")
        return 2
    sys.stdout.write(new_key(argv[1] if len(argv) > 1 else None) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
