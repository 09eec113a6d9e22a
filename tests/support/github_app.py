"""The emulator's GitHub App in tests: told the app's public key, its tokens expired early."""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from fastapi import FastAPI

from tests.emulators.helpers import emulator_client

APP_ID = "123"


def private_pem(key: RSAPrivateKey) -> str:
    """The private key as the PEM file GitHub hands out."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()


def public_pem(key: RSAPrivateKey) -> str:
    """The public half, which the emulated GitHub checks JWTs with."""
    public = key.public_key()
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


async def install_app(
    app: FastAPI,
    key: RSAPrivateKey,
    token_seconds: float = 3600,
    repositories: list[str] | None = None,
) -> None:
    """Tell the emulator about the app (installed everywhere unless `repositories`)."""
    settings = {"id": APP_ID, "public_key": public_pem(key), "token_seconds": token_seconds}
    settings["repositories"] = repositories
    async with emulator_client(app) as http:
        (await http.put("/_emulator/github/app", json=settings)).raise_for_status()


async def expire_tokens(app: FastAPI) -> int:
    """Expire every installation token the emulator issued; how many were live."""
    async with emulator_client(app) as http:
        response = await http.post("/_emulator/github/app/tokens/expire")
    response.raise_for_status()
    return int(response.json()["expired"])
