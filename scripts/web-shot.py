#!/usr/bin/env python3
"""web-shot.py URL OUT.png [--size WxH] [--timeout S]: opens URL (a garm page with ?run=...) in
headless Chromium with WebGPU on SwiftShader, echoes its console, waits for the run's final
`exit STATUS` line and saves a screenshot of the page. Drives Chromium through the DevTools
protocol on a pipe (--remote-debugging-pipe: commands on fd 3, replies on fd 4), so nothing beyond
Debian's chromium and Python's standard library is needed. Exits with the run's status."""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = [
    "--headless=new", "--no-sandbox", "--enable-unsafe-webgpu",
    "--use-webgpu-adapter=swiftshader", "--use-vulkan=swiftshader", "--enable-features=Vulkan",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--hide-scrollbars",
]


class Browser:
    def __init__(self, size, extra):
        self.profile = tempfile.mkdtemp(prefix="garm-shot-")
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()

        def fds():
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)
            # dup2 onto itself keeps close-on-exec (a pipe Python made at fd 3)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            ["chromium", *FLAGS, *extra, "--remote-debugging-pipe", f"--window-size={size}",
             f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(out_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self.out_r, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, deadline=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = deadline or time.time() + 60
        while True:
            m = self.read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("url")
    ap.add_argument("out")
    ap.add_argument("--size", default="1100,760")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--flag", action="append", default=[],
                    help="one more Chromium flag (repeatable), e.g. --flag=--disable-gpu-watchdog")
    a = ap.parse_args()
    b = Browser(a.size.replace("x", ","), a.flag)
    status = 125
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Runtime.enable", session=s)
        b.send("Page.enable", session=s)
        b.send("Page.navigate", {"url": a.url}, session=s)
        deadline = time.time() + a.timeout
        done = False
        while not done:
            m = b.events.pop(0) if b.events else b.read(deadline)
            if m.get("method") != "Runtime.consoleAPICalled":
                continue
            text = " ".join(str(x.get("value", x.get("description", "")))
                            for x in m["params"]["args"])
            print(text, flush=True)
            if text.startswith("exit "):
                status = int(text.split()[1])
                done = True
        time.sleep(0.3)  # the last paint
        shot = b.send("Page.captureScreenshot", {"format": "png"}, session=s)
        with open(a.out, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    finally:
        b.close()
    sys.exit(status)


if __name__ == "__main__":
    main()
