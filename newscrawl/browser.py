"""Headless Chromium over the DevTools protocol: the one browser driver of newscrawl.

Used where a real browser is the point: Wang et al.'s rendering baseline
(:mod:`newscrawl.classify.wang`) and the CSS benchmark against ``getComputedStyle``
(``benchmarks/css_vs_browser.py``). It is an optional extra (Debian ``chromium`` and
``websocket-client``; :func:`setup` installs both); the crawl and the test suite never need it.

One tab, scripts disabled (our cascade and Wang's features read the HTML as served), a fixed
desktop viewport, and a host resolver that maps every name except 127.0.0.1 to nothing, so a page
can never make the browser leave the machine.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = (1366, 768)
SETUP_HINT = f"{sys.executable} -m newscrawl.browser setup"


class Chromium:
    """One headless Chromium tab; :meth:`send` is one DevTools command and its result."""

    def __init__(self, viewport: tuple[int, int] = VIEWPORT) -> None:
        try:
            import websocket  # websocket-client: the optional extra
        except ImportError:
            raise RuntimeError(f"the browser needs websocket-client: {SETUP_HINT}") from None
        if not Path(CHROMIUM).exists():
            raise RuntimeError(f"the browser needs {CHROMIUM}: {SETUP_HINT}")
        width, height = viewport
        self.profile = tempfile.mkdtemp(prefix="newscrawl-chromium-")
        self.proc = subprocess.Popen(
            [
                CHROMIUM,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-extensions",
                "--disable-default-apps",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--mute-audio",
                f"--window-size={width},{height}",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as resp:
            targets = json.load(resp)
        tab = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(tab["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self._id = 0
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.send("Emulation.setScriptExecutionDisabled", value=True)
        self.frame = self.send("Page.getFrameTree")["frameTree"]["frame"]["id"]

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        my_id = self._id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == my_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_event(self, name: str, timeout: float = 60) -> None:
        """Read protocol messages until the event ``name`` (e.g. ``Page.loadEventFired``)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if json.loads(self.ws.recv()).get("method") == name:
                return
        raise TimeoutError(name)

    def evaluate(self, expression: str) -> Any:
        """The JSON value of ``expression``, run in the page (even with the page's scripts off)."""
        return self.send("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # never opened, or the browser is already gone
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def setup() -> int:
    """Install the optional extra: Debian chromium (needs root) and websocket-client."""
    if not Path(CHROMIUM).exists():
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(["apt-get", "install", "-y", "chromium"], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "websocket-client>=1.6"], check=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["setup"]:
        raise SystemExit("usage: python -m newscrawl.browser setup")
    sys.exit(setup())
