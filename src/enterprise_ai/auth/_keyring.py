"""The OS keyring, with a time limit on every call.

A keyring backend can hang (a locked D-Bus Secret Service waiting for an unlock prompt that never
comes, in CI or over SSH). Every call here runs in a daemon thread and is abandoned after
:data:`KEYRING_TIMEOUT_SECONDS`; a hung thread never keeps the process alive.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from enterprise_ai.errors import EaiError, ErrorKind

#: longest wait for one keyring call, in seconds
KEYRING_TIMEOUT_SECONDS = 3.0
#: keyring service name; the user name is the profile name
SERVICE = "eai"

T = TypeVar("T")


class KeyringUnavailable(EaiError):
    """No usable OS keyring: none installed, an insecure one, a failing or a hanging one."""

    default_kind = ErrorKind.NOT_AUTHENTICATED


def _call(fn: Callable[..., T], *args: Any, timeout: float = KEYRING_TIMEOUT_SECONDS) -> T:
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=target, name="eai-keyring", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise KeyringUnavailable(
            f"the OS keyring did not answer within {timeout:g} s",
            hint="unlock the keyring, set EAI_API_KEY, or log in with --insecure-storage",
        )
    if "error" in result:
        exc = result["error"]
        raise KeyringUnavailable(
            f"the OS keyring failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": "),
            hint="set EAI_API_KEY, or log in with --insecure-storage",
        ) from exc
    return result.get("value")  # type: ignore[return-value]


def backend_name() -> str:
    """``module.Class`` of the active keyring backend (may itself take time: bounded)."""
    import keyring

    kr = _call(keyring.get_keyring)
    return f"{type(kr).__module__}.{type(kr).__name__}"


def check_usable() -> None:
    """Raise :class:`KeyringUnavailable` unless a secure keyring backend is active.

    Unusable: the ``fail`` and ``null`` backends and any backend whose ``priority`` is below 1
    (keyring's own threshold for "not recommended"; e.g. keyrings.alt's plaintext file).
    """
    import keyring

    kr = _call(keyring.get_keyring)
    name = f"{type(kr).__module__}.{type(kr).__name__}"
    try:
        priority = float(getattr(kr, "priority", 0))
    except Exception:  # noqa: BLE001 - a backend whose priority raises is not usable
        priority = 0.0
    if name.startswith(("keyring.backends.fail", "keyring.backends.null")) or priority < 1:
        raise KeyringUnavailable(
            f"no usable OS keyring (backend {name})",
            hint="use --insecure-storage to keep the token in a file readable only by you, or set EAI_API_KEY",
        )


def get_token(profile: str) -> str | None:
    """The token stored for ``profile``, or None."""
    import keyring

    return _call(keyring.get_password, SERVICE, profile)


def set_token(profile: str, token: str) -> None:
    """Store the token of ``profile``."""
    import keyring

    _call(keyring.set_password, SERVICE, profile, token)


def delete_token(profile: str) -> bool:
    """Remove the token of ``profile``; False when there was none."""
    import keyring
    import keyring.errors

    try:
        _call(keyring.delete_password, SERVICE, profile)
    except KeyringUnavailable as exc:
        if isinstance(exc.__cause__, keyring.errors.PasswordDeleteError):
            return False
        raise
    return True
