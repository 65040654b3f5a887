#!/usr/bin/env python3
"""Drives the render server's page in headless chromium as a person would: types the token and
an edit, presses Render, watches the queue until the render's progress bar is full, then plays
its video in the page to its end. Prints one JSON object: what the page showed on the way.

usage: drive.py URL EDIT_JSON_FILE [TOKEN] [SECONDS]

chromium is driven through its DevTools protocol (a WebSocket, spoken here with the standard
library alone: the handshake and the frames of RFC 6455). Exits 0 when the video played to its
end, 1 otherwise."""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

URL, EDIT = sys.argv[1], open(sys.argv[2]).read()
TOKEN = sys.argv[3] if len(sys.argv) > 3 else ""
LIMIT = float(sys.argv[4]) if len(sys.argv) > 4 else 120


class Socket:
    """A WebSocket client: text frames, masked as a client must."""

    def __init__(self, url):
        host, port, path = re.match(r"ws://([^:/]+):(\d+)(/.*)", url).groups()
        self.s = socket.create_connection((host, int(port)), timeout=LIMIT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.s.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("no WebSocket: " + head.decode(errors="replace"))
        self.next = 0

    def exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.s.recv(n - len(data))
            if not chunk:
                raise RuntimeError("chromium closed the connection")
            data += chunk
        return data

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self):
        message = b""
        while True:
            b0, b1 = self.exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self.exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.exact(8))[0]
            message += self.exact(n)
            if b0 & 0x80:
                return message.decode()

    def call(self, method, **params):
        self.next += 1
        self.send(json.dumps({"id": self.next, "method": method, "params": params}))
        while True:
            reply = json.loads(self.receive())
            if reply.get("id") == self.next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]


profile = tempfile.mkdtemp(prefix="lk-drive-")
chromium = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio",
     "--autoplay-policy=no-user-gesture-required", "--remote-debugging-port=0", "--user-data-dir=" + profile,
     "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
result = {"ended": False}
try:
    port = None
    deadline = time.time() + 30
    while port is None and time.time() < deadline:
        line = chromium.stderr.readline()
        found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
        port = found and found.group(1)
    pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = Socket(next(p for p in pages if p["type"] == "page")["webSocketDebuggerUrl"])
    page.call("Page.enable")
    page.call("Page.navigate", url=URL)
    # The page's own controls, as a person uses them; what it shows is read from the page.
    script = """
    (async (edit, token, limit) => {
      const $ = (id) => document.getElementById(id);
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      while (!$("submit")) await sleep(50);
      if (token) { $("token").value = token; $("token").dispatchEvent(new Event("change")); }
      $("edit").value = edit;
      $("submit").click();
      const seen = {progress: [], statuses: []};
      let id = null;
      const end = Date.now() + limit * 1000;
      while (!id && Date.now() < end) {
        const said = $("said").textContent;
        if ($("said").className === "error") return {...seen, error: said};
        if (said.startsWith("queued ")) id = said.slice(7);
        await sleep(50);
      }
      seen.id = id;
      let row = null;
      while (Date.now() < end) {
        row = document.getElementById("render-" + id);
        if (row) {
          const value = row.querySelector("progress").value;
          if (seen.progress[seen.progress.length - 1] !== value) seen.progress.push(value);
          const status = row.dataset.status;
          if (seen.statuses[seen.statuses.length - 1] !== status) seen.statuses.push(status);
          if (status === "done" && row.querySelector("video")) break;
          if (status === "failed" || status === "canceled") return seen;
        }
        await sleep(100);
      }
      const video = row && row.querySelector("video");
      if (!video) return seen;
      seen.played = await new Promise((resolve) => {
        video.addEventListener("ended", () => resolve({ended: true, currentTime: video.currentTime, duration: video.duration}));
        video.addEventListener("error", () => resolve({ended: false, error: video.error && video.error.code}));
        video.play().catch((e) => resolve({ended: false, error: String(e)}));
        setTimeout(() => resolve({ended: false, error: "timeout", currentTime: video.currentTime}), limit * 1000);
      });
      return seen;
    })
    """
    time.sleep(0.5)
    reply = page.call(
        "Runtime.evaluate",
        expression=f"({script})({json.dumps(EDIT)}, {json.dumps(TOKEN)}, {LIMIT})",
        awaitPromise=True, returnByValue=True, timeout=int(LIMIT * 1000))
    result = reply["result"].get("value") or {"exception": reply.get("exceptionDetails")}
finally:
    chromium.kill()
    chromium.wait()
    shutil.rmtree(profile, ignore_errors=True)
print(json.dumps(result))
sys.exit(0 if (result.get("played") or {}).get("ended") else 1)
