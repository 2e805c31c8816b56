// The replay page's start script (Handoff, not part of rrweb-player): loads the session's events from
// `<page URL>/events` (same origin, authorized by the page's token) and plays them with rrweb-player. A screenshot
// event (Custom, tag "x3", payload e "img") shows its image, `<page URL>/assets/<sha>`, beside the wireframe as the
// replay reaches it.
(function () {
  "use strict";
  var status = document.getElementById("status");
  var target = document.getElementById("player");
  if (!status || !target) { return; }
  var base = window.location.pathname.replace(/\/+$/, "");
  var url = base + "/events";
  var figure = document.createElement("figure");
  var image = document.createElement("img");
  var caption = document.createElement("figcaption");
  figure.id = "screenshot";
  figure.hidden = true;
  image.alt = "Screenshot";
  caption.textContent = "Screenshot";
  figure.appendChild(image);
  figure.appendChild(caption);
  image.addEventListener("load", function () {
    figure.hidden = false;
    document.body.setAttribute("data-screenshot", image.getAttribute("data-sha") || "");
  });
  image.addEventListener("error", function () { figure.hidden = true; });
  function show(event) {
    var data = event && event.data;
    var payload = data && data.tag === "x3" ? data.payload : null;
    if (!payload || payload.e !== "img" || !/^[0-9a-f]{64}$/.test(payload.sha || "")) { return; }
    if (image.getAttribute("data-sha") === payload.sha) { return; }
    image.setAttribute("data-sha", payload.sha);
    image.src = base + "/assets/" + payload.sha;
  }
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
      target.parentNode.insertBefore(figure, target.nextSibling);
      window.handoffReplay.addEventListener("custom-event", show);
      document.body.setAttribute("data-replay", "ready");
    })
    .catch(function (error) {
      status.textContent = String(error && error.message ? error.message : error);
      document.body.setAttribute("data-replay", "failed");
    });
})();
