// The replay page's start script (Handoff, not part of rrweb-player): loads the session's events from
// `<page URL>/events` (same origin, authorized by the page's token) and plays them with rrweb-player.
(function () {
  "use strict";
  var status = document.getElementById("status");
  var target = document.getElementById("player");
  if (!status || !target) { return; }
  var url = window.location.pathname.replace(/\/+$/, "") + "/events";
  fetch(url, { credentials: "omit", cache: "no-store" })
    .then(function (response) {
      if (!response.ok) { throw new Error("the recording could not be loaded (" + response.status + ")"); }
      return response.json();
    })
    .then(function (body) {
      var events = (body.events || []).filter(function (e) {
        return e && typeof e.type === "number" && typeof e.timestamp === "number";
      });
      events.sort(function (a, b) { return a.timestamp - b.timestamp; });
      if (!events.some(function (e) { return e.type === 2; })) {
        status.textContent = "Nothing to replay: this session has no full snapshot recorded.";
        return;
      }
      status.textContent = "Session " + body.sessionId + ": " + events.length + " events"
        + (body.truncated ? " (the first packets only)" : "") + ".";
      window.handoffReplay = new rrwebPlayer({
        target: target,
        props: { events: events, autoPlay: true, width: 800, height: 480 }
      });
      document.body.setAttribute("data-replay", "ready");
    })
    .catch(function (error) {
      status.textContent = String(error && error.message ? error.message : error);
      document.body.setAttribute("data-replay", "failed");
    });
})();
