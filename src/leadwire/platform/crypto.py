"""Encryption of stored provider credentials with the instance's Fernet key."""

from __future__ import annotations

from typing import Any

import orjson
from cryptography.fernet import Fernet


class SecretBox:
    def __init__(self, key: str) -> None:
        self._fernet = Fernet(key.encode())

    def seal(self, secret: dict[str, Any]) -> str:
        return self._fernet.encrypt(orjson.dumps(secret)).decode()

    def open(self, token: str) -> dict[str, Any]:
        value: dict[str, Any] = orjson.loads(self._fernet.decrypt(token.encode()))
        return value
