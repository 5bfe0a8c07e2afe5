"""A webhook URL's pattern means the same to the server (Python) and to a client validating with the published
OpenAPI pattern (ECMAScript): characters whose "whitespace" class differs between the two are refused by both."""

from __future__ import annotations

import re

import pytest

from domain.webhooks import URL_PATTERN, valid_url


@pytest.mark.parametrize("char", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\ufeff", " ", "\t"])
def test_a_url_with_a_space_of_either_language_is_refused_by_both(char: str) -> None:
    url = f"https://example.com/hook{char}x"
    assert not valid_url(url)
    assert re.fullmatch(URL_PATTERN, url) is None


def test_an_ordinary_url_passes_both() -> None:
    url = "https://example.com:8443/hooks/in?team=7#x"
    assert valid_url(url) and re.fullmatch(URL_PATTERN, url)
