# Сообщения stikis для игры «От Полта до Царя», по-русски. Ранги: Царь, Президент, Высший
# класс, Средний класс, Низший класс, Полт.

polt-tzar = Царь
polt-president = Президент
polt-upper-class = Высший класс
polt-middle-class = Средний класс
polt-lower-class = Низший класс
polt-polt = Полт
game-command-polt = Открыть стол Польт

## Сообщение стола
polt-title = От Полта до Царя · раздача { $deal } из { $hands }
polt-exchanging = { $giver } отдаёт карту игроку { $receiver }
polt-exchanged = { $giver } и { $receiver } обменялись { $count ->
    [one] картой
   *[other] картами ({ $count })
}
polt-trump = Козыри: { $suit }
polt-trick = Взятка { $n }: { $cards }
polt-last-trick = Прошлая взятка: { $cards } → { $name }
polt-tricks-taken = Взятки: { $list }
polt-turn = Ход: { $name }

## Рука
polt-your-rank = Вы — { $rank }.
polt-hand = Ваши карты: { $cards }
polt-you-gave = Вы отдали { $card }.
polt-you-received = Вы получили { $card }.
polt-you-returned = Вы вернули { $card }.
polt-you-got-back = Вам вернули { $card }.
polt-give-one = Выберите карту, которую отдать.
polt-return-suit = Верните свою старшую карту масти { $suit }.
polt-return-joker = Вам достался джокер: верните свою старшую карту любой масти.
polt-name-trump = Назовите козыри.
polt-button-trump = Козыри { $suit }

polt-over = Эта раздача закончена; используйте кнопки последней руки.

## Итоги
polt-new-ranks = Новые ранги: { $ranks }
polt-total-tricks = Всего взяток: { $totals }
polt-final = Сессия окончена. Царь — { $name }.
