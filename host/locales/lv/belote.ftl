# stikis ziņas Belote saimei (bazāra, franču, divatā, coinche), latviski. Spēles vārdi paliek,
# kā spēlētāji tos saka: belote, rebelote, kapots, coinche, surcoinche, kontra, rekontra, terce.

belote-name-belote-bazar = Bazāra belote
belote-name-belote-classic = Franču belote
belote-name-belote-h2h = Belote divatā
belote-name-coinche = Coinche

## Galda ziņa
belote-title = { $game } · { $deal }. partija · dala { $dealer }
belote-teams = Komandas: { $first } pret { $second }
belote-turned = Atvērtā kārts: { $card }
belote-bids = Solījumi: { $bids }
belote-contract = Līgums: { $contract } ({ $name })
belote-announced = Pieteikts: { $list }
belote-trick = { $n }. stiķis: { $cards }
belote-last-trick = Iepriekšējais stiķis: { $cards } → { $name }
belote-tricks-taken = Stiķi: { $list }
belote-score = Rezultāts: { $totals } (spēle līdz { $target })
belote-turn = Gājiens: { $name }

## Roka
belote-hand = Tavas kārtis: { $cards }
belote-pick-level = Izvēlies, cik augstu solīt, vai vārdu.
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
belote-team-result = { $name }: { $points } kāršu punkti, { $combinations } par kombinācijām un belote; iegūst { $score }
belote-winner = Uzvara: { $name }.
