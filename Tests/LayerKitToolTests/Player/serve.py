#!/usr/bin/env python3
"""Plays one video in headless chromium through an HTML <video> element and prints what the
page reported: `ended CURRENT DURATION PRESENTED DECODED DROPPED` (frames presented, counted by
requestVideoFrameCallback; the decoder's total and dropped frames), `error CODE MESSAGE`, `play failed …`, or `timeout`.

usage: serve.py VIDEO [SECONDS]

Serves play.html, the video (with byte ranges, as a player asks for them) and two endpoints on
127.0.0.1: /report (the page's status) and /wait (held open until a report comes, so chromium's
--dump-dom run lasts until then). Exits 0 when the video played to its end, 1 otherwise."""
import http.server
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
VIDEO = sys.argv[1]
LIMIT = float(sys.argv[2]) if len(sys.argv) > 2 else 60
TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime"}
reported = threading.Event()
status = ["timeout"]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/":
            self.send(open(os.path.join(HERE, "play.html"), "rb").read(), "text/html")
        elif path == "/video":
            self.video()
        elif path == "/report":
            from urllib.parse import parse_qs
            status[0] = parse_qs(query).get("status", [""])[0]
            reported.set()
            self.send(b"ok", "text/plain")
        elif path == "/wait":
            reported.wait(LIMIT)
            self.send(b"", "image/gif")
        else:
            self.send_error(404)

    def send(self, body, kind, code=200, extra=()):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def video(self):
        data = open(VIDEO, "rb").read()
        kind = TYPES.get(os.path.splitext(VIDEO)[1].lower(), "application/octet-stream")
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start, _, end = rng[6:].partition("-")
            start = int(start or 0)
            end = min(int(end) if end else len(data) - 1, len(data) - 1)
            part = data[start:end + 1]
            self.send(part, kind, 206, [("Content-Range", f"bytes {start}-{end}/{len(data)}"), ("Accept-Ranges", "bytes")])
        else:
            self.send(data, kind, 200, [("Accept-Ranges", "bytes")])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/"
chromium = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio",
     "--autoplay-policy=no-user-gesture-required", "--user-data-dir=" + os.path.join(os.environ.get("TMPDIR", "/tmp"), f"lk-chromium-{os.getpid()}"),
     "--dump-dom", url],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
reported.wait(LIMIT)
try:
    chromium.wait(timeout=15)
except subprocess.TimeoutExpired:
    chromium.kill()
server.shutdown()
print(status[0])
sys.exit(0 if status[0].startswith("ended") else 1)
