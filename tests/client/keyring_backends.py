"""Keyring backends for tests (``keyring.set_keyring`` in-process, ``PYTHON_KEYRING_BACKEND`` in a child).

* :class:`FileKeyring` works: it keeps passwords in the JSON file named by ``EAI_TEST_KEYRING_FILE``
  (or in memory without it), so a child process and the test can both see them;
* :class:`FailingKeyring` raises ``KeyringError`` on every call;
* :class:`HangingKeyring` never answers (sleeps an hour), like a locked Secret Service.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError


class FileKeyring(KeyringBackend):
    priority = 10  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.memory: dict[str, str] = {}

    def _path(self) -> Path | None:
        name = os.environ.get("EAI_TEST_KEYRING_FILE")
        return Path(name) if name else None

    def _load(self) -> dict[str, str]:
        path = self._path()
        if path is None:
            return self.memory
        return json.loads(path.read_text()) if path.exists() else {}

    def _save(self, data: dict[str, str]) -> None:
        path = self._path()
        if path is None:
            self.memory = data
        else:
            path.write_text(json.dumps(data))

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}/{username}"] = password
        self._save(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}/{username}", None) is None:
            raise PasswordDeleteError("not found")
        self._save(data)


class FailingKeyring(KeyringBackend):
    priority = 10  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringError("the keyring daemon refused the request")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringError("the keyring daemon refused the request")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringError("the keyring daemon refused the request")


class HangingKeyring(KeyringBackend):
    priority = 10  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        time.sleep(3600)
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        time.sleep(3600)

    def delete_password(self, service: str, username: str) -> None:
        time.sleep(3600)
