# stikis ziņas spēlei "No Polta līdz Caram", latviski. Kārtas: Cars, Prezidents, Augstākā
# šķira, Vidusšķira, Zemākā šķira, Polts.

polt-tzar = Cars
polt-president = Prezidents
polt-upper-class = Augstākā šķira
polt-middle-class = Vidusšķira
polt-lower-class = Zemākā šķira
polt-polt = Polts
game-command-polt = Atvērt Polta galdu

## Galda ziņa
polt-title = No Polta līdz Caram · { $deal }. partija no { $hands }
polt-exchanging = { $giver } dod kārti spēlētājam { $receiver }
polt-exchanged = { $giver } un { $receiver } apmainījās ar { $count ->
    [one] kārti
   *[other] { $count } kārtīm
}
polt-trump = Trumpis: { $suit }
polt-trick = { $n }. stiķis: { $cards }
polt-last-trick = Iepriekšējais stiķis: { $cards } → { $name }
polt-tricks-taken = Stiķi: { $list }
polt-turn = Gājiens: { $name }

## Roka
polt-your-rank = Tu esi { $rank }.
polt-hand = Tavas kārtis: { $cards }
polt-you-gave = Tu atdevi { $card }.
polt-you-received = Tu saņēmi { $card }.
polt-you-returned = Tu atdevi atpakaļ { $card }.
polt-you-got-back = Tu saņēmi atpakaļ { $card }.
polt-give-one = Izvēlies kārti, ko atdot.
polt-return-suit = Atdod savu augstāko { $suit }.
polt-return-joker = Tu saņēmi džokeri: atdod savu augstāko jebkuras masts kārti.
polt-name-trump = Nosauc trumpi.
polt-button-trump = Trumpis { $suit }

polt-over = Šī partija ir beigusies; lieto jaunākās rokas pogas.

## Rezultāti
polt-new-ranks = Jaunās kārtas: { $ranks }
polt-total-tricks = Stiķi kopā: { $totals }
polt-final = Sesija beigusies. Cars ir { $name }.
