# stikis ziņas latviski.

lang-name = latviešu

## Galds
table-created = { $name } atvēra galdu: { $game }. Spied “Pievienoties”, lai apsēstos.
table-exists = Šajā tērzētavā jau ir atvērts galds.
table-joined = { $name } apsēžas { $seat }. vietā.
table-left = { $name } atstāja galdu.
table-seat-full = Šī vieta jau ir aizņemta.
table-full = Galds ir pilns.
table-full-add-seat = { $name } grib spēlēt, bet galds ir pilns: spied «{ $what }» zem tā, lai pievienotu vēl vienu vietu.
table-full-later = { $name } grib spēlēt, bet galds ir pilns. Pēc šīs spēles galdu vairāk spēlētājiem atver ar: { $list }
lobby-other-sizes = Citam spēlētāju skaitam: { $list }
table-already-seated = Tu jau sēdi pie šī galda.
table-not-seated = Tu nesēdi pie šī galda.
table-bot-added = Dators apsēžas { $seat }. vietā.
table-bot-removed = Dators atstāja { $seat }. vietu.
table-started = Spēle sākas: { $game }.
table-stopped = { $name } apturēja spēli.
table-finished = Spēle ir beigusies.
table-not-allowed = To drīkst tikai galda atvērējs vai administrators.
admin-check-failed = Šobrīd neizdevās pārbaudīt, vai tu administrē šo grupu: nekas netika mainīts. Lūdzu, mēģini vēlreiz pēc brīža.
table-none = Šajā tērzētavā nav atvērta galda.
table-waiting = Gaidām vēl { $count ->
    [zero] { $count } spēlētāju
    [one] { $count } spēlētāju
   *[other] { $count } spēlētājus
}.

## Gājieni un pogas
turn-yours = Tavs gājiens.
turn-not-yours = Nav tavs gājiens.
turn-warning = { $name }, laiks gājienam: vēl { $seconds ->
    [zero] { $seconds } sekunžu
    [one] { $seconds } sekunde
   *[other] { $seconds } sekundes
}.
turn-timeout = { $name }: laiks beidzās, gājienu izdarīja dators.
turn-away = { $name } nav klāt; līdz “Esmu atpakaļ” šo vietu spēlē dators.
button-back = Esmu atpakaļ
button-stale = Šī poga ir novecojusi; izmanto jaunāko ziņu.
button-bad = Šī poga nav derīga.
button-join = Pievienoties
button-leave = Aiziet
button-start = Sākt
button-add-bot = Pievienot datoru
button-add-seat = ➕ { $seat }. vieta
not-at-table = Tu nespēlē pie šī galda.

## Dalījumi
deal-started = Sākas { $deal }. { $game ->
    [polt] partija
   *[other] dalījums
}.
deal-commitment = Apņemšanās (sēklas SHA-256): { $commitment }
deal-seed = Sēkla: { $seed } (lai to pārbaudītu, saglabā spēles ierakstu ar /record un palaid “stikis replay FAILS”: tas no katras sēklas izdala kārtis vēlreiz un pārbauda katru gājienu).
record-carried-pules = Šis galds turpināja tērzētavas rezultātu lapu ar atvērtām pulēm (kopējās: { $common }, personīgās: { $personal }, koka zari: { $tree }). Ierakstā tām nav vietas, tāpēc “stikis replay” to skaita no tukšas lapas.
deal-result-header = { $deal }. { $game ->
    [polt] partijas
   *[other] dalījuma
} rezultāts
deal-declarer = Spēlētājs: { $name }, { $contract }
deal-all-passed = Visi garām.
deal-points = { $name }: { $points ->
    [zero] { $points } acu
    [one] { $points } acs
   *[other] { $points } acis
}
deal-tricks = { $name }: { $tricks ->
    [zero] { $tricks } stiķu
    [one] { $tricks } stiķis
   *[other] { $tricks } stiķi
}
deal-totals = Kopā: { $totals }

## Līgumi un spēles vārdi
contract-take = lielais
contract-zole = zole
contract-small-zole = mazā zole
contract-galdins = galdiņš
contract-pule = pule
word-lielais = lielais
word-pule = pule
word-pules = pules
word-galdins = galdiņš
pule-written = { $name } ieraksta puli.
pule-removed = { $name } noņem puli.
pules-open = Atvērtas pules: { $count }

## Iestatījumi
settings-turn-limit = Laiks gājienam: { $seconds ->
    [zero] { $seconds } sekunžu
    [one] { $seconds } sekunde
   *[other] { $seconds } sekundes
}
settings-turn-limit-off = Laiks gājienam: bez ierobežojuma
settings-auto-start = Sākt automātiski, kad galds pilns: { $value }
settings-lang = Valoda: { $lang }

## Zoles galds un kārtis
zole-title = Zole · { $deal }. dalījums · dala { $dealer }
zole-sitting-out = Nepiedalās: { $names }
zole-bids = Pieteikumi: { $bids }
zole-contract = Spēle: { $contract }, spēlētājs { $name }
zole-trick = { $n }. stiķis: { $cards }
zole-last-trick = Iepriekšējais stiķis: { $cards }
zole-tricks-taken = Stiķi: { $list }
zole-turn = Gājiens: { $name }
zole-hand = Tavas kārtis: { $cards }
zole-buried = Norakts: { $cards }
zole-you-sit-out = Šajā dalījumā tu nepiedalies.
zole-bury-pick = Izvēlies divas kārtis, ko norakt.
zole-bury-picked = Izvēlēta: { $cards }; izvēlies vēl vienu (nospied vēlreiz, lai atceltu).
zole-surrendered = Lielais padevās.
zole-tie = 60–60: neizšķirts. Kokam pieliek zaru.
zole-seat-result = { $name }: { $points ->
    [zero] { $points } acu
    [one] { $points } acs
   *[other] { $points } acis
}, { $tricks ->
    [zero] { $tricks } stiķu
    [one] { $tricks } stiķis
   *[other] { $tricks } stiķi
}
zole-talon = Galds: { $cards }
zole-pules = Pules: { $common } kopējās{ $personal ->
    [none] {""}
   *[other] , personīgās: { $personal }
}
zole-tree = Koka zari: { $branches }
button-pass = Garām
button-take = Ņemu (lielais)
button-zole = Zole
button-small-zole = Mazā zole
button-surrender = Padodos

## Score sheets
sheet-closed = Rezultātu lapa slēgta. Galarezultāts: { $totals }
sheet-none = Šajā tērzētavā nav atvērtas rezultātu lapas.
sheet-table-open = Vispirms apturiet galdu, tad slēdziet rezultātu lapu.

## Leaderboards and statistics
top-line = { $rank }. { $name } { $points } ({ $deals ->
    [zero] { $deals } dalījumu
    [one] { $deals } dalījums
   *[other] { $deals } dalījumi
})
top-none = Šeit vēl nav ieskaitīta neviena spēle.
stats-line = { $game }: { $points ->
    [zero] { $points } punktu
    [one] { $points } punkts
   *[other] { $points } punkti
}, { $games ->
    [zero] { $games } spēļu
    [one] { $games } spēle
   *[other] { $games } spēles
}, { $deals ->
    [zero] { $deals } dalījumu
    [one] { $deals } dalījums
   *[other] { $deals } dalījumi
}, { $wins ->
    [zero] { $wins } uzvaru
    [one] { $wins } uzvara
   *[other] { $wins } uzvaras
} kā lielajam
stats-pules = , pules ierakstītas { $written }, noņemtas { $removed }
stats-none = { $name } šeit vēl nav ieskaitītu spēļu.

# Atteikti gājieni.
refusal-over = Šis dalījums ir beidzies; lieto jaunākās rokas pogas.
refusal-bidding-on = Vēl notiek solīšana: kārtis liek, kad tā beigusies.
refusal-play-on = Solīšana ir beigusies: liec kārti.
refusal-bury-first = Lielais vispirms noroc divas kārtis; tad sākas spēle.
refusal-not-now = Šī poga ir no cita spēles brīža; lieto jaunāko roku.
refusal-not-held = Tev nav { $card }.
refusal-must-follow = Jāliek tas pats masts: tev ir { $card }.
refusal-must-beat = Jāliek augstāka kārts izietajā mastā: tev ir { $card }.
refusal-must-trump = Jāliek trumpis: tev ir { $card }.
refusal-bid = Šo solījumu tagad nevar teikt; izvēlies kādu no pogām.
refusal-bury = Noroc divas dažādas savas kārtis.
refusal-surrender = Tagad padoties nevar.
refusal-must-return = Tev jāatdod { $card }.

## Game names, computer players, a lobby after the start
game-name-zole = Zole
game-name-polt = No Polta līdz Caram
game-command-zole = Atvērt Zoles galdu
computer-name = Dators { $seat }
lobby-started = { $game }: spēle ir sākusies.
table-running = Spēle jau notiek: nav ko sākt.

## Zole results, explained
zole-last-trick-won = Pēdējais stiķis: { $cards }; to paņēma { $name }.
zole-galdins-lost = Galdiņš (visi garām, katrs spēlē pats par sevi). Zaudēja { $names }: { $why }.
zole-galdins-nobody = Galdiņš (visi garām, katrs spēlē pats par sevi): vienāds lielākais stiķu un acu skaits, neviens nemaksā.
zole-galdins-why-tricks = visvairāk stiķu (vienādos izšķir acis)
zole-galdins-why-points = visvairāk acu
zole-declarer-won = { $name } vinnēja { $contract }: { $points ->
    [zero] { $points } acu
    [one] { $points } acs
   *[other] { $points } acis
} (vajag 61 vai vairāk).
zole-declarer-lost = { $name } zaudēja { $contract }: { $points ->
    [zero] { $points } acu
    [one] { $points } acs
   *[other] { $points } acis
} (vajadzēja 61 vai vairāk).
zole-small-won = { $name } vinnēja { $contract }: neviena stiķa.
zole-small-lost = { $name } zaudēja { $contract }: paņemts stiķis.
zole-talon-picked-up = Galdu paņēma { $name }: { $cards }
zole-buried-by = { $name } noraka: { $cards }
zole-talon-untouched = Galds (nepaņemts): { $cards }
zole-deal-points = Šajā dalījumā: { $list }
zole-score-why = { $band ->
    [jani-won] Jaņos: 91 acs vai vairāk.
    [bezstikis-won] Bezstiķis: pretinieki nepaņēma nevienu stiķi.
    [all-won] Visas 120 acis.
    [jani-lost] Zaudēts jaņos: { $limit } acis vai mazāk.
    [bezstikis-lost] Bezstiķis: lielais nepaņēma nevienu stiķi.
    [none-lost] Neviena acs.
    [surrender] Padošanās: līguma pamata zaudējums.
    [small] Mazā zole.
    [plain-won] Vienkāršs vinnests.
   *[plain-lost] Vienkāršs zaudējums.
} { $won ->
    [yes] Katrs pretinieks maksā lielajam { $unit }.
   *[no] Lielais maksā katram pretiniekam { $unit }.
}
zole-pule-bonus = { $name } noņem kopējo puli: katrs cits spēlētājs maksā { $name } vēl 1.
zole-pule-own-removed = { $name } noņem savu personīgo puli (par to nemaksā).
zole-pule-personal-paid = { $name } noņem personīgo puli, kas bija { $owner }: { $owner } maksā { $name } { $points }.
zole-pule-personal-written = { $name } ieraksta personīgo puli (zaudēts lielais, kamēr ir atvērtas pules).
zole-tree-paid = Koks izmaksā: katrs uzvarētājs saņem { $branches } no katra zaudētāja.
