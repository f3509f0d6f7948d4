"""Start-up of ``eai gateway serve``: host check, first-start bootstrap, socket, uvicorn.

* :func:`check_host` - a non-loopback address needs ``allow_remote`` (the gateway holds credentials
  and runs tools; it is not meant to be reachable from the network by accident).
* :func:`bootstrap` - on a first start without configured principals, creates the tenant and an
  admin principal (roles ``tenant_admin``, every scope, classification ``restricted``, ``owner`` of
  every tool); only the SHA-256 of its token is stored, and the token is returned once.
* :func:`bind` + :func:`run` - the listening socket is bound before uvicorn starts, so that port 0
  works and the real address is known; SIGINT/SIGTERM stop accepting, finish the requests in flight
  (up to :data:`GRACEFUL_SECONDS`), wait for background executions and write their records.
"""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from enterprise_ai.errors import UsageError

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.gateway.config import GatewayConfig

GRACEFUL_SECONDS = 30
ADMIN_ID = "admin"


@dataclass
class Bootstrap:
    """What a start found or created: the tenant, and the admin token when it was just created."""

    tenant: str
    admin_id: str | None = None
    admin_token: str | None = None
    #: things the operator should know: a config tenant that the data directory overrides, principals
    #: kept in the data directory that the config does not list (they can still call)
    warnings: list[str] = field(default_factory=list)


def check_host(host: str, allow_remote: bool) -> None:
    """Raise :class:`UsageError` when ``host`` is not a loopback address and ``allow_remote`` is False."""
    if allow_remote:
        return
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise UsageError(f"refusing to listen on {host}: not a loopback address (add --allow-remote to accept it)")


def bootstrap(config: GatewayConfig, data_dir: str | Path) -> Bootstrap:
    """Create the tenant and, without principals in config or store, the admin (see the module docstring)."""
    from enterprise_ai.gateway.config import hash_token
    from enterprise_ai.gateway.store import Store

    store = Store(data_dir)
    try:
        tenant = store.get_meta("tenant")
        if tenant is None:
            tenant = config.tenant
            store.set_meta("tenant", tenant)
        result = Bootstrap(tenant)
        if config.tenant != tenant:
            result.warnings.append(f"the data directory's tenant {tenant!r} is kept; the config's tenant "
                                   f"{config.tenant!r} is ignored (use a new --data-dir for another tenant)")
        stored = [row["id"] for row in store.principals()]
        if config.principals:
            extra = sorted(set(stored) - {pr.id for pr in config.principals})
            if extra:
                result.warnings.append(f"principals kept in the data directory and not in the config can still "
                                       f"call: {', '.join(extra)} (use a new --data-dir to start without them)")
        if not config.principals and not stored:
            token = "eai_" + secrets.token_urlsafe(32)
            store.add_principal(ADMIN_ID, hash_token(token), ["tenant_admin"], ["*"], "restricted")
            store.add_relation("*", ADMIN_ID, "owner")
            result.admin_id, result.admin_token = ADMIN_ID, token
        return result
    finally:
        store.close()


def lock_data_dir(data_dir: str | Path) -> Any:
    """Take an exclusive lock on ``<data_dir>/gateway.lock`` for the life of the process.

    Two gateways on one data directory would each cache tools and relations in memory and diverge.
    Returns the open lock file (keep a reference). Raises UsageError when another gateway holds it.
    """
    path = Path(data_dir)
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle = (path / "gateway.lock").open("a+")
    except OSError as exc:
        raise UsageError(f"{path}: cannot use the data directory: {exc.strerror or exc}") from exc
    try:
        import fcntl

        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover - not POSIX: no lock
        pass
    except OSError as exc:
        handle.close()
        raise UsageError(f"{path}: another gateway is already serving this data directory") from exc
    return handle


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 = a free port). Raises UsageError if it is taken."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # IPPROTO_TCP: asyncio sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def run(app: Any, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until SIGINT/SIGTERM, then shut down gracefully (module docstring)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn re-raises SIGINT/SIGTERM after its graceful shutdown; the shutdown is done and
            # complete, so `eai gateway serve` exits 0 instead.
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=GRACEFUL_SECONDS, server_header=False)
    Server(config).run(sockets=[sock])
