#!/usr/bin/env python3
"""Opens one page in headless Chromium as a phone would, and reports what it showed.

Drives the DevTools protocol over `--remote-debugging-pipe` (file descriptors 3 and 4, messages separated by NUL),
so nothing beyond the Python standard library and Debian's `chromium` is needed. Sets the user agent,
`Accept-Language`, the screen size in CSS pixels and the IANA time zone, opens `--url`, waits until the page's script
marks `<html data-fingerprint="sent">` (or `--timeout` passes), then prints one JSON object:
`{"fingerprint": <attribute or null>, "svg": <inline SVG count>, "text": <document.body.innerText>, "screen": "WxH",
"timezone": …}`. `--ready-selector` waits for a CSS selector instead of the fingerprint, `--ready-expression` for a
JavaScript expression to be true (e.g. inside a same-origin frame); `--report-expression`'s value is added as
`"report"`;
`--screenshot` writes a PNG.
Exit status 3 means Chromium could not be started at all (the caller may skip); anything else non-zero is a failure.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="handoff-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire_fds():
            # Copy both ends above 4 first, so neither dup2 can clobber the other when the pipes got fds 3 or 4.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=wire_fds, close_fds=True)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params=None, session=None, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            for reply in self.read_messages():
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
        raise TimeoutError(method)

    def read_messages(self):
        chunk = os.read(self.from_browser, 1 << 16)
        if not chunk:
            raise EOFError("chromium closed the pipe")
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\0")
        return [json.loads(item) for item in complete if item]

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--user-agent", required=True)
    parser.add_argument("--accept-language", default="en-US,en;q=0.9")
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--timezone", required=True)
    parser.add_argument("--timeout", type=float, default=20)
    # A page without the fingerprint script: wait until this CSS selector matches instead.
    parser.add_argument("--ready-selector")
    # Or wait until this JavaScript expression is true.
    parser.add_argument("--ready-expression")
    # A JavaScript expression whose value the report carries as "report".
    parser.add_argument("--report-expression")
    # Write a PNG screenshot of the whole page here once it is ready.
    parser.add_argument("--screenshot")
    arguments = parser.parse_args()

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("chromium is not installed", file=sys.stderr)
        sys.exit(3)
    try:
        browser = Browser(binary)
        browser.send("Browser.getVersion", timeout=30)
    except Exception as error:  # Chromium cannot run here at all.
        print(f"chromium could not start: {error}", file=sys.stderr)
        sys.exit(3)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Emulation.setDeviceMetricsOverride", {
            "width": arguments.width, "height": arguments.height, "deviceScaleFactor": 3, "mobile": True,
            "screenWidth": arguments.width, "screenHeight": arguments.height}, session)
        browser.send("Emulation.setUserAgentOverride", {
            "userAgent": arguments.user_agent, "acceptLanguage": arguments.accept_language}, session)
        browser.send("Emulation.setTimezoneOverride", {"timezoneId": arguments.timezone}, session)
        browser.send("Page.enable", {}, session)
        browser.send("Page.navigate", {"url": arguments.url}, session)

        def evaluate(expression):
            result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
            return result.get("result", {}).get("value")

        deadline = time.time() + arguments.timeout
        state = None
        while time.time() < deadline:
            if arguments.ready_expression:
                if evaluate(f"!!({arguments.ready_expression})"):
                    break
            elif arguments.ready_selector:
                if evaluate(f"!!document.querySelector({json.dumps(arguments.ready_selector)})"):
                    break
            else:
                state = evaluate(
                    "document.documentElement && document.documentElement.getAttribute('data-fingerprint')")
                if state in ("sent", "refused", "failed"):
                    break
            time.sleep(0.1)
        if arguments.screenshot:
            shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session)
            with open(arguments.screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        print(json.dumps({
            "svg": evaluate("document.querySelectorAll('svg').length"),
            "fingerprint": state,
            "text": evaluate("document.body ? document.body.innerText : ''"),
            "screen": evaluate("screen.width + 'x' + screen.height"),
            "timezone": evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone"),
            "report": evaluate(arguments.report_expression) if arguments.report_expression else None,
        }))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
