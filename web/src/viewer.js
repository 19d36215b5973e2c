// The game viewer: one step of the deal at a time, stepped with the buttons or the keys
// (arrows, Home, End); the step is kept in the address (#s12) so a link opens it.
(function () {
  var viewer = document.getElementById("viewer");
  if (!viewer) return;
  var steps = viewer.querySelectorAll(".step");
  var where = document.getElementById("where");
  var at = 0;
  function show(k) {
    at = Math.max(0, Math.min(steps.length - 1, k));
    for (var i = 0; i < steps.length; i++) steps[i].hidden = i !== at;
    where.textContent = (at + 1) + " / " + steps.length;
    history.replaceState(null, "", "#s" + (at + 1));
  }
  document.getElementById("prev").addEventListener("click", function () { show(at - 1); });
  document.getElementById("next").addEventListener("click", function () { show(at + 1); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  var m = /^#s(\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) - 1 : 0);
})();
