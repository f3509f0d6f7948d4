"""Credentials and profiles for the gateway client: the core of ``eai auth`` and of every remote command.

Where the token comes from, first match wins:

1. ``EAI_API_KEY`` (the keyring is then never touched: no prompt, no hang in CI);
2. the OS keyring entry of the active profile (service ``eai``), each call limited to 3 s;
3. ``credentials.json`` in the config dir, only for a profile logged in with ``--insecure-storage``.

The gateway URL: ``EAI_BASE_URL``, else the profile's ``base_url``, else ``http://127.0.0.1:8700``.
Profiles and files: :mod:`enterprise_ai.auth._config`. The token is held in a :class:`Secret`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from enterprise_ai.auth import _config, _keyring
from enterprise_ai.auth._secret import Secret
from enterprise_ai.errors import EaiError, ErrorKind, UsageError

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient

__all__ = ["Credentials", "Secret", "login", "logout", "open_client", "resolve", "status"]

DEFAULT_BASE_URL = "http://127.0.0.1:8700"


@dataclass
class Credentials:
    """The resolved connection settings: profile, gateway URL, token and where the token came from.

    ``source`` is ``env EAI_API_KEY``, ``keyring``, ``file`` or ``none``; ``url_source`` names where
    ``base_url`` came from (``EAI_BASE_URL``, ``profile 'NAME'`` or ``default``), for error messages.
    """

    profile: str
    base_url: str
    token: Secret | None
    source: str
    url_source: str = "default"


def resolve(profile: str | None = None, *, require_token: bool = True) -> Credentials:
    """Credentials for the active profile (see the module docstring for the order).

    Raises:
        EaiError (NOT_AUTHENTICATED, exit 3): no token anywhere, or the keyring failed or hung.
    """
    name = _config.profile_name(profile)
    stored = _config.get_profile(name) or {}
    if profile and not stored and not os.environ.get("EAI_API_KEY"):
        raise UsageError(f"no profile named {name!r}", hint=f"run: eai auth login --profile {name}")
    base_url = os.environ.get("EAI_BASE_URL") or stored.get("base_url") or DEFAULT_BASE_URL
    url_source = ("EAI_BASE_URL" if os.environ.get("EAI_BASE_URL")
                  else f"base_url of profile {name!r}" if stored.get("base_url") else "default")
    env_key = os.environ.get("EAI_API_KEY")
    if env_key:
        return Credentials(name, base_url, Secret(env_key), "env EAI_API_KEY", url_source)
    storage = stored.get("token_storage", "none")
    token: str | None = None
    if storage == "keyring":
        token = _keyring.get_token(name)
    elif storage == "file":
        token = _config.read_file_token(name)
    if token:
        return Credentials(name, base_url, Secret(token), storage, url_source)
    if require_token:
        raise EaiError(
            f"no token for profile {name!r}",
            kind=ErrorKind.NOT_AUTHENTICATED,
            hint=f"run: eai auth login --profile {name} (or set EAI_API_KEY)",
        )
    return Credentials(name, base_url, None, "none", url_source)


def open_client(profile: str | None = None, **options: Any) -> ToolsClient:
    """A :class:`~enterprise_ai.tools.ToolsClient` for the active profile (options go to its constructor)."""
    from enterprise_ai.tools._client import ToolsClient, check_base_url

    creds = resolve(profile)
    return ToolsClient(check_base_url(creds.base_url, creds.url_source), creds.token, **options)


def login(
    token: str,
    *,
    profile: str | None = None,
    base_url: str | None = None,
    insecure_storage: bool = False,
    warn: Any = None,
) -> dict[str, Any]:
    """Check ``token`` against the gateway, store it, and save the profile.

    Args:
        token: the bearer token (read from stdin or a hidden prompt by the CLI, never an argument).
        profile: profile name (``--profile``, ``EAI_PROFILE``, default ``default``).
        base_url: gateway URL; the profile's, ``EAI_BASE_URL`` or the local default otherwise.
        insecure_storage: keep the token in ``credentials.json`` (mode 0600) instead of the keyring.
        warn: ``callable(str)`` told, BEFORE the file is written, that the storage is insecure.

    Returns:
        ``{"profile", "base_url", "token_storage", "token_last4", "config"}``.

    Raises:
        UsageError: ``EAI_API_KEY`` is set (it would shadow the stored token), or an empty token.
        AuthenticationError (exit 3): the gateway refused the token. Nothing is written.
        KeyringUnavailable (exit 3): no usable keyring and no ``insecure_storage``. Nothing is written.
    """
    if os.environ.get("EAI_API_KEY"):
        raise UsageError("EAI_API_KEY is set and always wins over a stored token", hint="unset EAI_API_KEY to log in")
    token = token.strip()
    if not token:
        raise UsageError("empty token")
    name = _config.profile_name(profile)
    stored = _config.get_profile(name) or {}
    url = (base_url or os.environ.get("EAI_BASE_URL") or stored.get("base_url") or DEFAULT_BASE_URL).rstrip("/")
    from enterprise_ai.tools._client import ToolsClient, check_base_url

    check_base_url(url, "--base-url" if base_url else "EAI_BASE_URL" if os.environ.get("EAI_BASE_URL") else "base URL")

    with ToolsClient(url, Secret(token), max_retries=1) as client:
        client.list(limit=1)  # 401 -> AuthenticationError: nothing stored
    if insecure_storage:
        if warn is not None:
            warn(f"storing the token in plain text in {_config.config_dir() / _config.CREDENTIALS_FILE} (mode 0600)")
        _config.write_file_token(name, token)
        storage = "file"
    else:
        _keyring.check_usable()
        _keyring.set_token(name, token)
        _config.write_file_token(name, None)
        storage = "keyring"
    path = _config.save_profile(name, url, storage)
    return {
        "profile": name,
        "base_url": url,
        "token_storage": storage,
        "token_last4": Secret(token).last4,
        "config": str(path),
    }


def logout(profile: str | None = None) -> dict[str, Any]:
    """Remove the stored token of a profile (keyring entry and file entry); the profile URL stays.

    Returns ``{"profile", "removed": [...]}``, the storages a token was removed from.
    """
    name = _config.profile_name(profile)
    stored = _config.get_profile(name) or {}
    removed = []
    if _config.read_file_token(name):
        _config.write_file_token(name, None)
        removed.append("file")
    if stored.get("token_storage") == "keyring" and _keyring.delete_token(name):
        removed.append("keyring")
    if stored:
        _config.set_token_storage(name, "none")
    return {"profile": name, "removed": removed}


def status(profile: str | None = None) -> dict[str, Any]:
    """The active profile, URL, token source and the token's last 4 characters (never more)."""
    creds = resolve(profile, require_token=False)
    return {
        "profile": creds.profile,
        "base_url": creds.base_url,
        "token_source": creds.source,
        "token_last4": creds.token.last4 if creds.token else "",
        "config_dir": str(_config.config_dir()),
    }
