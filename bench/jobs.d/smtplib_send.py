#!/usr/bin/env python3
"""bench/jobs' reference sender: Python's smtplib sends COUNT mails shaped like the probe job's (multipart/alternative,
text and HTML, from and to the same address) to the same sink, THREADS threads with one connection each (reused for
all of that thread's mails, as the workers reuse theirs). Prints "mails <n> seconds <wall> cpu_seconds <user+sys>".

    python3 smtplib_send.py --port=PORT --count=COUNT --threads=THREADS --sender=ADDRESS
"""
import argparse
import resource
import smtplib
import threading
import time
from email.message import EmailMessage
from email.utils import formatdate


def probe_mail(sender, number):
    message = EmailMessage()
    message["From"] = f"Handoff probe <{sender}>"
    message["To"] = sender
    message["Subject"] = f"probe py-{number}"
    message["Date"] = formatdate()
    message["Message-ID"] = f"<probe-py-{number}@handoff.local>"
    message.set_content(f"Probe job py-{number}.\n")
    message.add_alternative(f"<p>Probe job py-{number}.</p>", subtype="html")
    return message


def send_all(port, sender, numbers):
    with smtplib.SMTP("127.0.0.1", port) as client:
        for number in numbers:
            client.send_message(probe_mail(sender, number))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sender", required=True)
    arguments = parser.parse_args()
    started = time.monotonic()
    threads = [threading.Thread(target=send_all, args=(arguments.port, arguments.sender,
                                                       range(index, arguments.count, arguments.threads)))
               for index in range(arguments.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"mails {arguments.count} seconds {time.monotonic() - started:.3f} "
          f"cpu_seconds {usage.ru_utime + usage.ru_stime:.3f}")


if __name__ == "__main__":
    main()
