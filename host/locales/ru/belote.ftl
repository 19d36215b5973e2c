# Сообщения stikis для семейства белота (базарный, французский, вдвоём, куанш), по-русски.
# Слова игры — как говорят игроки: белот, ребелот, капот, куанш, сюркуанш, контра, реконтра, терц.

belote-name-belote-bazar = Базарный белот
belote-name-belote-classic = Французский белот
belote-name-belote-h2h = Белот вдвоём
belote-name-coinche = Куанш

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
belote-turn = Ход: { $name }

## Рука
belote-hand = Ваши карты: { $cards }
belote-pick-level = Выберите высоту заявки или слово.
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
belote-team-result = { $name }: { $points } очков в картах, { $combinations } за комбинации и белот; записано { $score }
belote-winner = Победа: { $name }.
