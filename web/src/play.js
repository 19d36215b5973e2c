// The live table: the table is redrawn from the server's feed (server-sent events; the
// browser reconnects by itself and is sent the table as it is then); a tap on a card or a
// button sends that button's token. In Telegram (Mini App) the page takes Telegram's colours,
// shows the back button and gives a haptic tap on a play. As a Discord Activity the page signs
// the person in through Discord's SDK first, then draws the table in place.
(function () {
  var tg = window.Telegram && window.Telegram.WebApp;
  if (tg) {
    tg.ready();
    if (tg.expand) tg.expand();
    var th = tg.themeParams || {};
    var css = document.documentElement.style;
    if (th.bg_color) css.setProperty("--bg", th.bg_color);
    if (th.text_color) css.setProperty("--fg", th.text_color);
    if (th.hint_color) css.setProperty("--muted", th.hint_color);
    if (th.button_color) css.setProperty("--accent", th.button_color);
    // Seats and buttons sit on Telegram's second background (its own text colour on it is
    // readable in a dark theme as in a light one); without it, on the page's own.
    var surface = th.secondary_bg_color || th.section_bg_color || th.bg_color;
    if (surface) css.setProperty("--surface", surface);
    if (th.section_separator_color) css.setProperty("--line", th.section_separator_color);
  }
  function form(o) {
    return {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(o).toString()
    };
  }
  var app = document.getElementById("miniapp");
  if (app) {
    var said = document.getElementById("status");
    var user = (tg && tg.initDataUnsafe && tg.initDataUnsafe.user) || {};
    var asked = user.language_code || navigator.language || "";
    fetch("/play/app/session", form({ init_data: tg ? tg.initData : "", lang: asked }))
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); })
      .then(function (a) {
        if (a.ok) location.replace(a.j.url);
        else said.textContent = a.j.error;
      })
      .catch(function () { said.textContent = app.dataset.lost; });
    return;
  }
  // A Discord Activity: the Embedded App SDK signs the person in (its code is exchanged by
  // the server, which alone holds the application's secret), then the table is drawn here,
  // in this page (leaving it would end the SDK's connection to Discord).
  var act = document.getElementById("activity");
  if (act) {
    document.documentElement.classList.add("activity");
    var told = document.getElementById("status");
    var lost = function () { told.textContent = act.dataset.lost; };
    var asked = navigator.language || "";
    var enter = function (t) {
      act.textContent = "";
      var r = document.createElement("div");
      r.id = "play";
      r.dataset.table = t.table;
      r.dataset.k = t.k;
      r.dataset.lost = act.dataset.lost;
      var v = document.createElement("div");
      v.id = "view";
      var st = document.createElement("p");
      st.id = "status";
      st.setAttribute("role", "status");
      r.appendChild(v);
      r.appendChild(st);
      act.appendChild(r);
      live(r, asked);
    };
    import(act.dataset.sdk)
      .then(function (m) {
        var sdk = new m.DiscordSDK(act.dataset.client);
        return sdk.ready()
          .then(function () {
            return sdk.commands.authorize({
              client_id: act.dataset.client,
              response_type: "code",
              state: "",
              prompt: "none",
              scope: ["identify"]
            });
          })
          .then(function (a) {
            return fetch("/play/activity/session", form({ code: a.code, instance: sdk.instanceId || "", lang: asked }));
          })
          .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); })
          .then(function (a) {
            if (!a.ok) { told.textContent = a.j.error; return; }
            return sdk.commands.authenticate({ access_token: a.j.access_token }).then(function () {
              var ts = a.j.tables;
              if (ts.length === 1) return enter(ts[0]);
              told.textContent = act.dataset.choose;
              ts.forEach(function (t) {
                var b = document.createElement("button");
                b.className = "choice";
                b.textContent = t.title;
                b.addEventListener("click", function () { enter(t); });
                act.appendChild(b);
              });
            });
          });
      })
      .catch(lost);
    return;
  }
  var page = document.getElementById("play");
  if (page) live(page, document.documentElement.lang || "");

  // The table in `root` (its reference and key in its data), for the language `lang`.
  function live(root, lang) {
    var view = root.querySelector("#view");
    var status = root.querySelector("#status");
    var table = root.dataset.table, k = root.dataset.k;
    if (tg && tg.BackButton) {
      tg.BackButton.show();
      tg.BackButton.onClick(function () { tg.close(); });
    }
    function tick() {
      var els = document.querySelectorAll(".timer[data-ends]");
      for (var i = 0; i < els.length; i++) {
        var s = Math.max(0, Math.round((+els[i].dataset.ends - Date.now()) / 1000));
        els[i].textContent = s + " s";
      }
    }
    var feed = new EventSource(
      "/play/" + table + "/events?k=" + encodeURIComponent(k) + "&lang=" + encodeURIComponent(lang)
    );
    feed.addEventListener("view", function (e) {
      view.innerHTML = e.data;
      status.textContent = "";
      root.dataset.version = e.lastEventId;
      tick();
    });
    feed.addEventListener("over", function (e) {
      status.textContent = e.data;
      feed.close();
    });
    feed.onerror = function () {
      if (feed.readyState !== EventSource.CLOSED) status.textContent = root.dataset.lost;
    };
    view.addEventListener("click", function (ev) {
      var b = ev.target.closest("[data-token]");
      if (!b || b.disabled) return;
      b.disabled = true;
      if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred("light");
      fetch("/play/" + table + "/press", form({ k: k, token: b.dataset.token, lang: lang }))
        .then(function (r) { return r.json(); })
        .then(function (j) { if (j.reply) status.textContent = j.reply; })
        .catch(function () {
          b.disabled = false;
          status.textContent = root.dataset.lost;
        });
    });
    setInterval(tick, 1000);
  }
})();
