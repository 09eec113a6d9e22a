"""Inside the set-up sandbox: a loopback port that leads to the worker's egress proxy.

Run by the sandbox's own Python (standard library only) as
`python3 -I egress_bridge.py SOCKET -- COMMAND...`: it listens on 127.0.0.1 in the sandbox's
network namespace, points the command's proxy variables at that port, relays each connection to
the proxy's Unix socket, and exits with the command's exit code.
"""

import asyncio
import os
import sys

CHUNK = 64 * 1024
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy bytes one way until the sender is done, then pass the end on."""
    try:
        while chunk := await reader.read(CHUNK):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except OSError:
        writer.close()


def _relay_to(socket_path: str):  # type: ignore[no-untyped-def]
    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            proxy_reader, proxy_writer = await asyncio.open_unix_connection(socket_path)
        except OSError:
            writer.close()
            return
        try:
            await asyncio.gather(pipe(reader, proxy_writer), pipe(proxy_reader, writer))
        finally:
            proxy_writer.close()
            writer.close()

    return relay


async def _main(socket_path: str, command: list[str]) -> int:
    server = await asyncio.start_server(_relay_to(socket_path), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k.lower() != "no_proxy"}
    env.update(dict.fromkeys(PROXY_VARS, f"http://127.0.0.1:{port}"))
    try:
        child = await asyncio.create_subprocess_exec(*command, env=env)
    except OSError as err:
        sys.stderr.write(f"cannot run {command[0]}: {err}\n")
        return 127
    code = await child.wait()
    server.close()
    return code if code >= 0 else 128 - code  # killed by a signal, as a shell reports it


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        sys.exit("usage: egress_bridge.py SOCKET -- COMMAND...")
    sys.exit(asyncio.run(_main(args[0], args[2:])))
