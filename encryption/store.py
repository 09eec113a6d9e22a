"""Large payloads kept out of Temporal's history: a content-addressed folder of payload files.

A driver for the SDK's external storage: a payload over the threshold is written (after the codec,
so encrypted when encryption is on) to `<dir>/<sha256[:2]>/<sha256>` and the history holds only a
reference naming its hash. Every worker and client must see the same folder.
"""

import asyncio
import hashlib
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from google.protobuf import json_format
from temporalio.api.common.v1 import Payload
from temporalio.api.sdk.v1 import ExternalStorageReference
from temporalio.converter import (
    ExternalStorage,
    StorageDriver,
    StorageDriverClaim,
    StorageDriverRetrieveContext,
    StorageDriverStoreContext,
)

from encryption.errors import PayloadStoreError

DRIVER_NAME = "ticketsmith.files"
SETTING = "TICKETSMITH_PAYLOAD_STORE_DIR"
_SHA256 = re.compile(r"[0-9a-f]{64}")
_REFERENCE = ExternalStorageReference.DESCRIPTOR.full_name.encode()


class FilePayloadStore(StorageDriver):
    """Payload files named by the sha256 of their bytes: writes are idempotent and atomic."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def name(self) -> str:
        """The name references carry; it must not change while histories refer to it."""
        return DRIVER_NAME

    def type(self) -> str:
        """Same as the name: one driver of this kind."""
        return DRIVER_NAME

    def path_of(self, digest: str) -> Path:
        """Where the payload with this sha256 lives."""
        return self.directory / digest[:2] / digest

    async def store(
        self, context: StorageDriverStoreContext, payloads: Sequence[Payload]
    ) -> list[StorageDriverClaim]:
        """Write each payload once (an identical one already there is kept) and claim it."""
        return await asyncio.to_thread(lambda: [self._store_one(p) for p in payloads])

    async def retrieve(
        self, context: StorageDriverRetrieveContext, claims: Sequence[StorageDriverClaim]
    ) -> list[Payload]:
        """Read each claimed payload back, checking its hash."""
        return await asyncio.to_thread(lambda: [self._retrieve_one(c) for c in claims])

    def _store_one(self, payload: Payload) -> StorageDriverClaim:
        data = payload.SerializeToString(deterministic=True)
        digest = hashlib.sha256(data).hexdigest()
        path = self.path_of(digest)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written whole under a temporary name, then renamed: readers never see a partial file,
            # and the reference reaches Temporal only after the bytes are on disk.
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{digest[:8]}-")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(tmp, path)
                _fsync_directory(path.parent)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        return StorageDriverClaim(claim_data={"hash_algorithm": "sha256", "hash_value": digest})

    def _retrieve_one(self, claim: StorageDriverClaim) -> Payload:
        digest = claim.claim_data.get("hash_value", "")
        if claim.claim_data.get("hash_algorithm") != "sha256" or not _SHA256.fullmatch(digest):
            raise PayloadStoreError(
                f"malformed payload reference {dict(claim.claim_data)}: "
                "expected hash_algorithm sha256 and a 64-digit hex hash_value"
            )
        path = self.path_of(digest)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise PayloadStoreError(
                f"stored payload {digest} is missing: {path} does not exist. The history refers "
                f"to it, so every worker and client must share the folder {SETTING} names "
                f"(here {self.directory}); point {SETTING} at that shared folder or restore "
                "the file from a backup"
            ) from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise PayloadStoreError(
                f"stored payload {path} is damaged: its sha256 no longer matches its name; "
                "restore the file from a backup"
            )
        return Payload.FromString(data)


def _fsync_directory(directory: Path) -> None:
    """Make a rename in `directory` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def payload_storage(directory: Path, threshold_bytes: int) -> ExternalStorage:
    """External storage for payloads of at least `threshold_bytes`; 0 stores none, reads all."""
    driver = FilePayloadStore(directory)
    if threshold_bytes > 0:
        return ExternalStorage(drivers=[driver], payload_size_threshold=threshold_bytes)
    # Off for writing, but references written before it was turned off still read back.
    return ExternalStorage(drivers=[driver], driver_selector=lambda _context, _payload: None)


def reference_in(payload: Payload) -> ExternalStorageReference | None:
    """The external storage reference a history payload holds, if it is one."""
    metadata = payload.metadata
    if metadata.get("encoding") != b"json/protobuf" or metadata.get("messageType") != _REFERENCE:
        return None
    return json_format.Parse(payload.data, ExternalStorageReference())


async def resolve_references(store: FilePayloadStore, payloads: Sequence[Payload]) -> list[Payload]:
    """The payloads with every reference to this store replaced by the stored payload."""
    resolved = []
    for payload in payloads:
        reference = reference_in(payload)
        if reference is None or reference.driver_name != store.name():
            resolved.append(payload)
            continue
        claim = StorageDriverClaim(claim_data=dict(reference.claim_data))
        resolved.extend(await store.retrieve(StorageDriverRetrieveContext(), [claim]))
    return resolved
