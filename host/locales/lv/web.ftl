# Tīmekļa lapas (host/src/web).
web-home = Katras kopienas lapas atveras ar saiti, ko saņem tās tērzēšana: pajautājiet botam ar /web.
web-not-found-title = Nav atrasts
web-not-found = Tādas lapas nav. Saite var būt veca: kopienas administrators to var nomainīt ar /web new, un tad tērzēšanā ir jaunā (/web).
web-bad-request-title = Nederīga adrese
web-bad-request = Adresē ir kaut kas, ko šī vietne nevar nolasīt (piemēram, iestatījums norādīts divreiz). Atveriet saiti, ko deva tērzēšana (/web).
web-unavailable = Datubāze šobrīd neatbild. Mēģiniet vēlreiz pēc dažām sekundēm.
web-boards = Tabulas
web-period-day = Šodien
web-period-week = Šonedēļ
web-period-month = Šomēnes
web-period-season = { $n }. sezona
web-period-all = Visu laiku
web-points = { $game }: punkti
web-ratings = { $game }: reitingi
web-col-player = Spēlētājs
web-col-points = Punkti
web-col-deals = Dalījumi
web-col-rating = Reitings
web-col-games = Spēles
web-no-boards = Šajā laikā šeit nav pabeigts neviens dalījums.
web-games = Pēdējās spēles
web-no-games = Šeit vēl nav pabeigta neviena spēle.
web-game-line = { $game }, { $date } { $time } UTC: { $players } ({ $deals ->
    [zero] { $deals } partiju
    [one] { $deals } partija
   *[other] { $deals } partijas
})
web-deal = { $n }. dalījums
web-dealer = Dalītājs: { $name }
web-prev = ◀ Atpakaļ
web-next = Tālāk ▶
web-keys = Taustiņi: ← un → iet pa dalījumu, Home un End uz tā sākumu un beigām.
web-step-dealt = Kārtis, kā tās izdalītas.
web-act-play = { $name } liek { $card }.
web-act-bid = { $name } solī: { $what }.
web-act-other = { $name }: { $what }.
web-act-bury = { $name } noliek { $cards }.
web-act-surrender = { $name } padodas.
web-act-give = { $name } atdod { $card }.
web-act-return = { $name } atdod atpakaļ { $card }.
web-act-trump = { $name } nosauc trumpjus: { $suit }.
web-talon = Galds
web-talon-taken = { $name } paņēma galdu.
web-buried = { $name } norakti
web-turned = Atvērtā kārts
web-sits-out = šo partiju nespēlē
web-told = Kā gāja partija
web-trick-won = { $name } paņem stiķi.
web-trumps = Trumpjiem ir zelta rāmis; kārtij, kas paņem stiķi, zaļš rāmis ar ✔.
web-seed = Sēkla
web-commitment = Apņemšanās (sēklas SHA-256, publicēta pirms dalījuma)
web-checked = Pārbaudīts: sēkla izdala tieši šīs kārtis, un katrs gājiens ir atļauts.
web-check-failed = Ieraksts neiztur pārbaudi: { $reason }
web-replay = Pārbaudiet paši ar ierakstu:
web-download = Lejupielādēt ierakstu
web-score = Rezultāts
web-contract = Līgums
web-declarer = Lielais
web-contract-tie = 60–60, neizšķirts
web-contract-redeal = visi garām
web-surrendered = padevās
web-col-pules = Pules
web-pules-common = kopējās { $n }
web-totals = Kopā
web-no-deals = Šajā spēlē nav pabeigts neviens dalījums.
# Tērzēšanā.
web-off = Šim botam nav tīmekļa lapu (tā uzturētājs to palaiž ar --web-listen un --web-url).
web-link = Šīs kopienas lapas (tabulas, spēlētāji, turnīri, pabeigtās spēles): { $url }
    Paturiet saiti savā starpā: to var atvērt ikviens, kam tā ir. Administrators jaunu izveido ar /web new.
web-link-new = { $name } izveidoja jaunu saiti uz šīs kopienas lapām; vecā vairs neatveras: { $url }
web-listed = Kopienas, kuru lapas var redzēt ikviens:
web-public-usage = /web public <nosaukums> ieliek šīs kopienas lapas vietnes sākumlapā ar šo nosaukumu (līdz 60 zīmēm), lai ikviens tās atrastu; /web private tās izņem un izveido jaunu saiti. Tikai administratoriem.
web-public-on = { $name } padarīja šīs kopienas lapas publiskas: vietnes sākumlapā tās ir kā “{ $listed }”. /web private tās izņem. { $url }
web-public-off = { $name } izņēma šīs kopienas lapas no vietnes sākumlapas un izveidoja jaunu saiti; vecā vairs neatveras: { $url }
web-see-boards = Visas tabulas un spēles: { $url }
web-see-game = Spēle, kārti pa kārtij: { $url }
# Analīze ar atklātām kārtīm.
web-dd = Ar visām kārtīm atklātām, pret labāko kārti:
web-dd-cost = Šī kārts zaudēja { $n }.
web-dd-summary = Zaudēts kļūdās (visas kārtis atklātas)
web-col-lost = Zaudēts
web-col-mistakes = Kļūdas / kārtis
web-dd-about = Katra kārts salīdzināta ar labāko kārti, kas spēlētājam bija, ar visām kārtīm atklātām un visiem spēlējot nevainojami no tās vietas: lielā pusei skaitās acis (mazajā zolē stiķi), pretiniekiem acis, ko tie lielajam neatdod.
web-dd-pending = Šī dalījuma analīze tiek rēķināta; pēc brīža pārlādējiet lapu.
web-dd-none = Šim dalījumam analīzes nav (nebija izspēles, vai šai spēlei vai līgumam tās nav).
# Turnīri.
web-see-tournament = Kopvērtējums un sēdvietas, dzīvajā: { $url }
web-tournaments = Turnīri
web-tournament-title = Turnīrs { $n }
web-tournament-line = Turnīrs { $n }, { $date }: { $what }
web-status-registration = pieteikšanās atvērta
web-status-on = notiek
web-status-running = spēlē { $round }. kārtu no { $rounds }
web-status-paused = pauze pirms { $round }. kārtas no { $rounds }
web-status-finished = beidzies
web-status-cancelled = atcelts
web-standings = Kopvērtējums pēc { $round }. kārtas no { $rounds }
web-no-standings = Neviena kārta vēl nav beigusies.
web-col-big = Lielie punkti
web-col-pm = +/−
web-col-rounds = Kārtas
web-entered = Pieteikušies ({ $count }): { $names }
web-seating = { $round }. kārta
web-table-n = { $n }. galds
web-table-playing = spēlē, { $deal }. partija
web-table-waiting = tūlīt sāksies
web-table-closed = spēle
web-refreshing = Kamēr turnīrs notiek, šī lapa atjaunojas ik pēc 30 sekundēm.
# Spēlētāja lapa.
web-player-rating = { $game }: reitings { $rating } pēc { $count ->
    [one] { $count } spēles
   *[other] { $count } spēlēm
}
web-player-stats = { $game }: { $points ->
    [zero] { $points } punktu
    [one] { $points } punkts
   *[other] { $points } punkti
}, { $count ->
    [zero] { $count } spēļu
    [one] { $count } spēle
   *[other] { $count } spēles
}, { $deals ->
    [zero] { $deals } dalījumu
    [one] { $deals } dalījums
   *[other] { $deals } dalījumi
}, { $wins ->
    [zero] { $wins } uzvaru
    [one] { $wins } uzvara
   *[other] { $wins } uzvaras
} kā lielajam
web-rating-chart = { $game }: reitings laika gaitā
web-no-history = Vēl nav nevienas reitinga spēles.
web-recent = Pēdējās spēles

## The live table (/play)
play-title = { $game }, galds { $table }
play-deal = { $deal }. partija
play-your-turn = Jūsu gājiens
play-turn-of = Gājiens: { $name }
play-spectator = Jūs skatāties: galds tāds, kādu to redz grupa.
play-last-trick = Pēdējais stiķis, paņēma { $name }
play-trick = Uz galda
play-result = Pēdējā partija
play-contract = Līgums: { $contract }, { $name }
play-contract-open = Līgums: { $contract }
play-bids = Solīšana: { $bids }
play-announced = Pieteikts: { $list }
play-deal-ended = { $deal }. partija ir beigusies
play-table-message = Galda ziņa
play-totals = Kopā
play-connecting = Savienojas…
play-lost = Savienojums pārtrūka: savienojas no jauna…
play-over = Šis galds ir slēgts.
play-denied-title = Šī saite neatver galdu
play-forged = Šo saiti nav devis bots, vai tā ir mainīta. Palūdziet botam savu saiti vēlreiz (/play galda tērzēšanā).
play-expired = Šīs saites laiks ir beidzies. Palūdziet botam jaunu (/play galda tērzēšanā).
play-not-yours = Šis galds jums nav atvērts: to var atvērt tikai tā spēlētāji un tā tērzēšanas dalībnieki.
play-bad-request = Lapa nosūtīja kaut ko, ko tai nevajadzēja. Pārlādējiet lapu; ja tas atkārtojas, palūdziet botam savu saiti vēlreiz (/play galda tērzēšanā).
play-link = Jūsu vieta pie dzīvā galda (personīga saite: nedodiet to citiem; derīga 24 stundas): { $url }
play-link-watch = Dzīvais galds skatīšanās režīmā (jums pie tā nav vietas; derīgs 24 stundas): { $url }
play-link-off = Šim botam dzīvais galds nav iestatīts (tā uzturētājs norāda --web-url).
play-link-closed-chat = Atveriet privātu tērzēšanu ar mani un nospiediet Start: saite ir personīga, tāpēc sūtu to tikai tur.
play-open = Atvērt galdu
activity-choose = Šeit ir atvērti vairāki galdi: izvēlies vienu.
activity-no-table = Šeit nav atvērta neviena galda. Sāc galdu ar komandu šajā kanālā un tad atver aktivitāti vēlreiz.
play-platform-unavailable = Bots šobrīd nevar sazināties ar čata platformu: nekas netika mainīts. Lūdzu, mēģini vēlreiz pēc brīža.
