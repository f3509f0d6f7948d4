"""Profiles: which gateway to talk to, and where its token is kept.

The config file is ``<config dir>/config.json``; the config dir is ``EAI_CONFIG_DIR`` when set, else
``platformdirs.user_config_dir("eai")`` (``~/.config/eai`` on Linux). Shape::

    {"default_profile": "default",
     "profiles": {"default": {"base_url": "http://127.0.0.1:8700", "token_storage": "keyring"}}}

``token_storage`` is ``keyring`` (the OS keyring, service ``eai``, user = profile name), ``file``
(``credentials.json`` next to the config, mode 0600, only with ``--insecure-storage``) or ``none``.
A profile is chosen by ``--profile``, then ``EAI_PROFILE``, then ``default_profile``, then ``default``.
Every write goes through a temporary file and ``os.replace``: a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from enterprise_ai.errors import UsageError

CONFIG_FILE = "config.json"
CREDENTIALS_FILE = "credentials.json"
DEFAULT_PROFILE = "default"


def config_dir() -> Path:
    """``EAI_CONFIG_DIR``, else the platform's user config directory for ``eai``."""
    override = os.environ.get("EAI_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("eai"))


def profile_name(explicit: str | None = None, config: dict[str, Any] | None = None) -> str:
    """The active profile: ``explicit`` (``--profile``), ``EAI_PROFILE``, the default one, ``default``."""
    if explicit:
        return explicit
    env = os.environ.get("EAI_PROFILE")
    if env:
        return env
    cfg = config if config is not None else load_config()
    return str(cfg.get("default_profile") or DEFAULT_PROFILE)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:  # a directory in its place, EAI_CONFIG_DIR naming a file, no permission
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}", hint="check EAI_CONFIG_DIR") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text", hint="fix or delete the file") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc})", hint="fix or delete the file") from exc
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a JSON object")
    return data


def write_json_atomic(path: Path, data: dict[str, Any], *, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory, then ``os.replace``.

    The temporary file is created with ``mode`` (owner read/write only by default) before any
    byte is written, so the content is never readable by others, even for an instant.

    Raises:
        UsageError (exit 2): the directory cannot be made or written (the old file is left as it was).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}", hint="check EAI_CONFIG_DIR") from exc
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise UsageError(f"{path}: cannot write: {exc.strerror or exc}", hint="check EAI_CONFIG_DIR") from exc
        raise


def load_config() -> dict[str, Any]:
    """The config file as a dict (``{}`` when it does not exist).

    Raises:
        UsageError (exit 2): the file cannot be read, is not JSON, or is not in the shape above.
    """
    path = config_dir() / CONFIG_FILE
    cfg = _read_json(path)
    profiles = cfg.get("profiles", {})
    if not isinstance(profiles, dict) or not all(isinstance(v, dict) for v in profiles.values()):
        raise UsageError(f"{path}: 'profiles' must map each profile name to an object", hint="fix or delete the file")
    if not isinstance(cfg.get("default_profile", ""), str):
        raise UsageError(f"{path}: 'default_profile' must be a string", hint="fix or delete the file")
    return cfg


def get_profile(name: str) -> dict[str, Any] | None:
    """The stored settings of profile ``name``, or None."""
    profile = load_config().get("profiles", {}).get(name)
    return profile if isinstance(profile, dict) else None


def save_profile(name: str, base_url: str, token_storage: str, *, make_default: bool | None = None) -> Path:
    """Create or replace profile ``name``; returns the config file path.

    ``make_default``: True makes it the default profile; None (the default) only when there is none
    yet; False never (``eai dev`` uses this, so that its throw-away profile never becomes the default).
    """
    cfg = load_config()
    cfg.setdefault("profiles", {})[name] = {"base_url": base_url, "token_storage": token_storage}
    if make_default or (make_default is None and not cfg.get("default_profile")):
        cfg["default_profile"] = name
    path = config_dir() / CONFIG_FILE
    write_json_atomic(path, cfg)
    return path


def set_token_storage(name: str, token_storage: str) -> None:
    """Record where the token of profile ``name`` is kept (``none`` after a logout)."""
    cfg = load_config()
    profile = cfg.get("profiles", {}).get(name)
    if isinstance(profile, dict):
        profile["token_storage"] = token_storage
        write_json_atomic(config_dir() / CONFIG_FILE, cfg)


def read_file_token(name: str) -> str | None:
    """The token of profile ``name`` from the insecure ``credentials.json``, or None."""
    value = _read_json(config_dir() / CREDENTIALS_FILE).get(name)
    return str(value) if value else None


def write_file_token(name: str, token: str | None) -> Path:
    """Store (or with None, remove) the token of ``name`` in ``credentials.json`` (mode 0600)."""
    path = config_dir() / CREDENTIALS_FILE
    data = _read_json(path)
    if token is None:
        if name not in data:
            return path
        data.pop(name)
    else:
        data[name] = token
    write_json_atomic(path, data, mode=0o600)
    return path
