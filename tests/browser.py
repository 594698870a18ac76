"""Headless Chromium for the tests that look at a page (Debian's chromium + chromium-driver, driven by
selenium with the driver on PATH: selenium never downloads a browser or a driver)."""

from __future__ import annotations

import contextlib
import shutil
import time
from typing import Any, Callable, Iterator, Optional, Sequence

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")


def require_chromium() -> None:
    """Skip the calling test module when the browser or its driver is missing."""
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("no chromium + chromedriver on PATH (Debian: apt-get install chromium chromium-driver)",
                    allow_module_level=True)


@contextlib.contextmanager
def chrome(extra_args: Sequence[str] = (), capabilities: Optional[dict] = None) -> Iterator[Any]:
    """A headless Chromium driven by the chromedriver on PATH, quit on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *extra_args):
        opts.add_argument(arg)
    for key, value in (capabilities or {}).items():
        opts.set_capability(key, value)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(predicate: Callable[[], Any], timeout: float = 30, interval: float = 0.1) -> Any:
    """The first truthy value of ``predicate()``, polled until ``timeout`` seconds; AssertionError then."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting for the page")
