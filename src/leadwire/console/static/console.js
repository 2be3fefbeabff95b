// The console's one script: a page region with `data-live` follows that URL's server-sent events.
// A `swap` event's data is HTML: each top-level element replaces the page's element with its id, or is
// added to the element its `data-into` names; one marked `data-gone` removes it. `end` stops listening.
// Everything else on the console works without this script.
"use strict";
(function () {
  var region = document.querySelector("[data-live]");
  if (!region || !window.EventSource) return;
  var source = new EventSource(region.getAttribute("data-live"));
  source.addEventListener("swap", function (event) {
    var template = document.createElement("template");
    template.innerHTML = event.data;
    Array.prototype.slice.call(template.content.children).forEach(function (fresh) {
      var current = fresh.id ? document.getElementById(fresh.id) : null;
      if (fresh.hasAttribute("data-gone")) {
        if (current) current.remove();
      } else if (current) {
        current.replaceWith(fresh);
      } else {
        var into = document.getElementById(fresh.getAttribute("data-into") || "");
        if (into) into.appendChild(fresh);
      }
    });
  });
  source.addEventListener("end", function () { source.close(); });
})();
