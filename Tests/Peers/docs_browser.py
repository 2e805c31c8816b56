#!/usr/bin/env python3
"""Opens /docs in headless Chromium and reports what Redoc rendered, and where the page sent requests.

Uses the DevTools-over-a-pipe `Browser` of page_browser.py. Waits until Redoc has rendered its operations (or
`--timeout` passes), then prints one JSON object: `{"operations": <rendered operation sections>, "text":
<document.body.innerText>, "hosts": [<host of every request the page sent>], "blocked": [<hosts of requests the
page's Content-Security-Policy stopped before they left>], "errors": [<exceptions and console errors>]}`.
Exit status 3 means Chromium could not be started at all.
"""
import argparse
import json
import os
import shutil
import sys
import time
import urllib.parse

from page_browser import Browser


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--timeout", type=float, default=30)
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
    requests, blocked, errors = {}, set(), []
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
        browser.send("Network.enable", {}, session)
        browser.send("Runtime.enable", {}, session)
        browser.send("Page.enable", {}, session)
        original_read = browser.read_messages

        def watching():
            messages = original_read()
            for message in messages:
                method, params = message.get("method"), message.get("params", {})
                if method == "Network.requestWillBeSent":
                    url = params.get("request", {}).get("url", "")
                    if url.startswith("http"):
                        requests[params.get("requestId")] = urllib.parse.urlsplit(url).netloc
                elif method == "Network.loadingFailed" and params.get("blockedReason") == "csp":
                    blocked.add(params.get("requestId"))
                elif method == "Runtime.exceptionThrown":
                    errors.append(params.get("exceptionDetails", {}).get("text", "exception"))
                elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                    values = params.get("args", [])
                    errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in values))
            return messages

        browser.read_messages = watching
        browser.send("Page.navigate", {"url": arguments.url}, session)

        def evaluate(expression):
            result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
            return result.get("result", {}).get("value")

        count = "document.querySelectorAll('[data-section-id^=\"operation/\"]').length"
        deadline = time.time() + arguments.timeout
        operations = 0
        while time.time() < deadline:
            operations = evaluate(count) or 0
            if operations:
                time.sleep(1)  # let the rest of the page settle
                operations = evaluate(count) or 0
                break
            time.sleep(0.2)
        print(json.dumps({
            "operations": operations,
            "text": evaluate("document.body ? document.body.innerText : ''"),
            "hosts": sorted({host for key, host in requests.items() if key not in blocked}),
            "blocked": sorted({host for key, host in requests.items() if key in blocked}),
            "errors": errors,
        }))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
