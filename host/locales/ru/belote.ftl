# Сообщения stikis для семейства белота (базарный, французский, вдвоём, куанш), по-русски.
# Слова игры — как говорят игроки: белот, ребелот, капот, куанш, сюркуанш, контра, реконтра, терц.

belote-name-belote-bazar = Базарный белот
belote-name-belote-classic = Французский белот
belote-name-belote-h2h = Белот вдвоём
belote-name-coinche = Куанш
game-command-belote = Открыть стол Белот
game-command-coinche = Открыть стол Куанш

## Сообщение стола
belote-title = { $game } · раздача { $deal } · сдаёт { $dealer }
belote-teams = Команды: { $first } против { $second }
belote-turned = Открытая карта: { $card }
belote-bids = Заявки: { $bids }
belote-contract = Контракт: { $contract } ({ $name })
belote-announced = Объявлено: { $list }
belote-trick = Взятка { $n }: { $cards }
belote-last-trick = Прошлая взятка: { $cards } → { $name }
belote-tricks-taken = Взятки: { $list }
belote-score = Счёт: { $totals } (игра до { $target })
belote-target = Игра до { $target }
belote-turn = Ход: { $name }

## Рука
belote-hand = Ваши карты: { $cards }
belote-pick-level = Выберите высоту заявки или слово.
belote-pick-level-tens = Выберите высоту заявки: число — десятки очков (8 · 80 обещает не меньше 80 очков, 9 · 90 — не меньше 90, …); или слово.
belote-pick-trump = Заявка { $level }: выберите козырь (‹ — назад).
belote-level-closed = Так высоко заявить уже нельзя.

## Заявки и слова игры
belote-pass = Пас
belote-take = Беру { $suit }
belote-contra = Контра
belote-recontra = Реконтра
belote-coinche = Куанш
belote-surcoinche = Сюркуанш
belote-capot = капот
belote-no-trumps = без козыря
belote-all-trumps = все козыри
belote-tierce = терц
belote-fifty = полтинник
belote-hundred = сотня
belote-four = каре { $rank }
belote-belote = белот
belote-rebelote = ребелот

## Итоги
belote-redeal = Все спасовали: следующий сдающий сдаёт заново.
belote-made = Контракт выполнен.
belote-failed = Контракт не выполнен.
belote-capot-taken = Капот: все взятки — { $name }.
belote-rebelote-held = Белот-ребелот (король и дама козырей в одной руке): { $name }, { $points }.
belote-deal-scores = За раздачу: { $list }
belote-team-result = { $name }: { $points ->
    [one] { $points } очко в картах
    [few] { $points } очка в картах
    [many] { $points } очков в картах
   *[other] { $points } очка в картах
}, { $combinations } за комбинации и белот; записано { $score }
belote-winner = Победа: { $name }.

# Why a bid is refused.
belote-bid-refused = Эту заявку сделать нельзя: { $why }.
belote-bid-rule-not-this-game = это не заявка этой игры
belote-bid-rule-nothing-to-double = нет заявки, которую можно контрировать
belote-bid-rule-already-doubled = заявка уже контрирована
belote-bid-rule-double-by-opponents-only = контрировать может только соперник последней заявки
belote-bid-rule-redouble-needs-double = для реконтры сначала нужна контра
belote-bid-rule-redouble-by-bidders-only = реконтру может объявить только заявившая команда
belote-bid-rule-no-all-trumps-in-bazar = в базарном белоте нет заявки «все козыри»
belote-bid-rule-capot-above-2-5 = капот заявляют только выше 25
belote-bid-rule-coinche-above-1-6-0 = заявки идут до 160, затем капот
belote-bid-rule-no-bid-after-double = после контры новых заявок нет
belote-bid-rule-below-minimum = заявки начинаются с 80 очков
belote-bid-rule-above-maximum = эта заявка выше наибольшей
belote-bid-rule-not-higher = заявка должна быть выше последней
belote-bid-rule-capot-only = после капота можно заявить только капот
belote-bid-rule-take-in-first-round = открытую карту берут только в первом круге
belote-bid-rule-name-in-second-round = масть называют только во втором круге
