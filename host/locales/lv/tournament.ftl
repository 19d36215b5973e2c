# Turnīri (Latvijas formāts: kārtas, lielie punkti, pārsēšanās).
tournament-format-deals = { $deals ->
    [zero] { $deals } dalījumu
    [one] { $deals } dalījums
   *[other] { $deals } dalījumi
} pie galda kārtā
tournament-format-turn = , { $seconds ->
    [zero] { $seconds } sekunžu
    [one] { $seconds } sekunde
   *[other] { $seconds } sekundes
} gājienam
tournament-format-minutes = { $minutes ->
    [zero] { $minutes } minūšu
    [one] { $minutes } minūte
   *[other] { $minutes } minūtes
} kārtā
tournament-registration = 🏆 Zoles turnīrs: { $rounds ->
    [zero] { $rounds } kārtu
    [one] { $rounds } kārta
   *[other] { $rounds } kārtas
}, { $format }. Pieteikšanās ir atvērta: spied «Pievienoties».
tournament-commitment = Izlozes apņemšanās (sēklas SHA-256, pēc kuras sēdinās 1. kārtu): { $commitment }
tournament-entered = Pieteikušies ({ $count }): { $names }
tournament-nobody = Vēl neviens nav pieteicies.
tournament-created = { $name } atver zoles turnīru.
tournament-joined = { $name } ir pieteicies.
tournament-late = { $name } ir pieteicies un spēlēs no nākamās kārtas.
tournament-already-in = Tu jau esi pieteicies.
tournament-name-taken = Ar vārdu { $name } jau kāds ir pieteicies.
tournament-left = { $name } ir izstājies.
tournament-left-mid-round = { $name } ir izstājies; šo kārtu viņa vietā nospēlē dators, un kārta tiek ieskaitīta.
tournament-not-in = Tu neesi pieteicies.
tournament-too-few = Turnīram vajag vismaz 3 spēlētājus; pieteikušies { $count }.
tournament-exists = Šajā čatā jau notiek turnīrs.
tournament-none = Šajā čatā nav turnīra.
tournament-over = Šis turnīrs ir beidzies.
tournament-no-computers = Šis turnīrs ir tikai cilvēkiem.
tournament-admin-only = To var tikai čata administrators vai turnīra rīkotājs.
tournament-started = Turnīrs sākas: { $count ->
    [zero] { $count } spēlētāju
    [one] { $count } spēlētājs
   *[other] { $count } spēlētāji
}. Izlozes sēkla: { $seed } (tās SHA-256 ir apņemšanās, kas publicēta, atverot pieteikšanos; `stikis tournament verify FAILS` pārbauda visu turnīru).
tournament-round = { $round }. kārta no { $rounds }:
tournament-table-line = { $table }. galds: { $names }
tournament-your-seat = Turnīra { $round }. kārta: tu spēlē pie { $table }. galda, { $seat }. vietā. Kārtis atnāks atsevišķā ziņā.
tournament-table-label = { $round }. kārta, { $table }. galds
tournament-table-done = { $round }. kārtas { $table }. galds ir beidzis: { $totals }
tournament-standings = 🏆 Kopvērtējums pēc { $round }. kārtas no { $rounds }
tournament-standings-none = 🏆 Kopvērtējums: vēl neviena kārta nav beigusies
tournament-standing-line = { $rank }. { $name }: { $big ->
    [zero] { $big } lielo punktu
    [one] { $big } lielais punkts
   *[other] { $big } lielie punkti
}, { $pm } spēles punkti, { $played ->
    [zero] { $played } kārtu
    [one] { $played } kārta
   *[other] { $played } kārtas
}
tournament-withdrawn = (izstājies)
tournament-paused = { $name } apturēja turnīru: nākamā kārta gaidīs, līdz to atsāks.
tournament-resumed = { $name } atsāka turnīru.
tournament-not-paused = Turnīrs nav apturēts.
tournament-cancelled = { $name } atcēla turnīru; kopvērtējums paliek tāds, kāds tas bija pēc pēdējās pilnās kārtas.
tournament-finished = 🏆 Turnīrs ir beidzies. Gala kopvērtējums:
tournament-no-round = Turnīram vēl nav nevienas beigtas kārtas.
tournament-running = Turnīrs jau ir sācies.
tournament-bad-options = Turnīru atver tā: /tournament [kārtas] [dalījumi kārtā] [noteikumi], piem. /tournament 3 24 lv; /tournament [kārtas] [minūtes]m kārtām ar laiku; piem. 90s — 90 sekundes gājienam.
button-pause = Apturēt
button-resume = Atsākt
button-cancel = Atcelt
# The tournament message's first line once entries have closed: the title and its state.
tournament-title = 🏆 Zoles turnīrs: { $rounds ->
    [zero] { $rounds } kārtu
    [one] { $rounds } kārta
   *[other] { $rounds } kārtas
}, { $format }.
tournament-state-round = Notiek { $round }. kārta no { $rounds }.
tournament-state-paused = { $round }. kārta no { $rounds }; turnīrs apturēts: nākamā kārta gaidīs, līdz to atsāks.
tournament-state-finished = Turnīrs ir beidzies.
tournament-state-cancelled = Turnīrs ir atcelts.
