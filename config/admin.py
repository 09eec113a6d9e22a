"""Settings of the codec server and of the admin routes the token guards."""

from pydantic import SecretStr

from config.common import CommonSettings


class AdminSettings(CommonSettings):
    """The codec server's address and origins, and the bearer token of the admin routes."""

    codec_host: str = "127.0.0.1"
    codec_port: int = 8081
    codec_cors_origins: str = ""
    # The bearer token callers beyond loopback must send to the routes that change state or
    # read payloads: the codec server, the tool server's faults and call log, the emulators'
    # admin routes. Without it those routes answer callers on this machine only.
    admin_token: SecretStr | None = None
    # Those routes answer anyone, token or not (a trusted network; logged at start).
    admin_allow_unauthenticated: bool = False
