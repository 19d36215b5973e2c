# stikis ziņas Belote saimei (bazāra, franču, divatā, coinche), latviski. Spēles vārdi paliek,
# kā spēlētāji tos saka: belote, rebelote, kapots, coinche, surcoinche, kontra, rekontra, terce.

belote-name-belote-bazar = Bazāra belote
belote-name-belote-classic = Franču belote
belote-name-belote-h2h = Belote divatā
belote-name-coinche = Coinche
game-command-belote = Atvērt Belotes galdu
game-command-coinche = Atvērt Kuanšas galdu

## Galda ziņa
belote-title = { $game } · { $deal }. dalījums · dala { $dealer }
belote-teams = Komandas: { $first } pret { $second }
belote-turned = Atvērtā kārts: { $card }
belote-bids = Solījumi: { $bids }
belote-contract = Līgums: { $contract } ({ $name })
belote-announced = Pieteikts: { $list }
belote-trick = { $n }. stiķis: { $cards }
belote-last-trick = Iepriekšējais stiķis: { $cards } → { $name }
belote-tricks-taken = Stiķi: { $list }
belote-score = Rezultāts: { $totals } (spēle līdz { $target })
belote-target = Spēle līdz { $target }
belote-turn = Gājiens: { $name }

## Roka
belote-hand = Tavas kārtis: { $cards }
belote-pick-level = Izvēlies, cik augstu solīt, vai vārdu.
belote-pick-level-tens = Izvēlies, cik augstu solīt: skaitlis ir punktu desmiti (8 · 80 sola vismaz 80 punktus, 9 · 90 vismaz 90, …); vai vārdu.
belote-pick-trump = Solījums { $level }: izvēlies trumpi (‹ — atpakaļ).
belote-level-closed = Tik augstu vairs nevar solīt.

## Solījumi un spēles vārdi
belote-pass = Garām
belote-take = Ņemu { $suit }
belote-contra = Kontra
belote-recontra = Rekontra
belote-coinche = Coinche
belote-surcoinche = Surcoinche
belote-capot = kapots
belote-no-trumps = bez trumpjiem
belote-all-trumps = visi trumpji
belote-tierce = terce
belote-fifty = piecdesmit
belote-hundred = simts
belote-four = kare { $rank }
belote-belote = belote
belote-rebelote = rebelote

## Rezultāti
belote-redeal = Visi garām: nākamais dalītājs dala no jauna.
belote-made = Līgums izpildīts.
belote-failed = Līgums neizpildīts.
belote-capot-taken = Kapots: visi stiķi — { $name }.
belote-rebelote-held = Belote-rebelote (trumpu kungs un dāma vienā rokā): { $name }, { $points }.
belote-deal-scores = Šajā dalījumā: { $list }
belote-team-result = { $name }: { $points ->
    [zero] { $points } kāršu punktu
    [one] { $points } kāršu punkts
   *[other] { $points } kāršu punkti
}, { $combinations } par kombinācijām un belote; iegūst { $score }
belote-winner = Uzvara: { $name }.

# Why a bid is refused.
belote-bid-refused = Šo solījumu nevar teikt: { $why }.
belote-bid-rule-not-this-game = šis nav šīs spēles solījums
belote-bid-rule-nothing-to-double = nav solījuma, ko kontrēt
belote-bid-rule-already-doubled = solījums jau ir kontrēts
belote-bid-rule-double-by-opponents-only = kontrēt var tikai pēdējā solījuma pretinieks
belote-bid-rule-redouble-needs-double = rekontrai vispirms vajag kontru
belote-bid-rule-redouble-by-bidders-only = rekontrēt var tikai solītāju komanda
belote-bid-rule-no-all-trumps-in-bazar = bazāra belotē nav solījuma “visi trumpji”
belote-bid-rule-capot-above-2-5 = kapotu var solīt tikai virs 25
belote-bid-rule-coinche-above-1-6-0 = solījumi ir līdz 160, tad kapots
belote-bid-rule-no-bid-after-double = pēc kontras jaunu solījumu nav
belote-bid-rule-below-minimum = solījumi sākas no 80 punktiem
belote-bid-rule-above-maximum = šis solījums ir virs augstākā
belote-bid-rule-not-higher = solījumam jābūt augstākam par pēdējo
belote-bid-rule-capot-only = pēc kapota var solīt tikai kapotu
belote-bid-rule-take-in-first-round = atvērto kārti ņem tikai pirmajā kārtā
belote-bid-rule-name-in-second-round = mastu nosauc tikai otrajā kārtā
