# Сообщения stikis по-русски. Игровые слова — одни и те же во всех сообщениях, по-русски
# (латышские названия латиницей не смешиваются с русским текстом): золе (игра и контракт),
# малая золе (mazā zole), большой (lielais: и контракт, и тот, кто его играет), галдиньш
# (galdiņš), пуля, пули, пуль (pule).

lang-name = русский

## Стол
table-created = { $name } открывает стол: { $game }. Нажмите «Присоединиться», чтобы сесть.
table-exists = В этом чате уже есть открытый стол.
table-joined = { $name } садится на место { $seat }.
table-left = { $name } уходит из-за стола.
table-seat-full = Это место уже занято.
table-full = Стол заполнен.
table-full-add-seat = { $name } хочет играть, но стол заполнен: нажмите «{ $what }» под ним, чтобы добавить ещё одно место.
table-full-later = { $name } хочет играть, но стол заполнен. После этой игры стол на большее число игроков открывается так: { $list }
lobby-other-sizes = Для другого числа игроков: { $list }
table-already-seated = Вы уже сидите за этим столом.
table-not-seated = Вы не сидите за этим столом.
table-bot-added = Компьютер садится на место { $seat }.
table-bot-removed = Компьютер освобождает место { $seat }.
table-started = Игра { $game } начинается.
table-stopped = { $name } останавливает игру.
table-finished = Игра окончена.
table-not-allowed = Это может сделать только создатель стола или администратор.
admin-check-failed = Сейчас не удалось проверить, администрируете ли вы эту группу: ничего не изменено. Попробуйте ещё раз чуть позже.
table-none = В этом чате нет открытого стола.
table-waiting = Ждём ещё { $count ->
    [one] { $count } игрока
    [few] { $count } игроков
   *[other] { $count } игроков
}.

## Ходы и кнопки
turn-yours = Ваш ход.
turn-not-yours = Сейчас не ваш ход.
turn-warning = { $name }, на ход осталось { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
   *[other] { $seconds } секунд
}.
turn-timeout = { $name }: время вышло, ход сделал компьютер.
turn-away = { $name } отсутствует; до нажатия «Я вернулся» за это место играет компьютер.
button-back = Я вернулся
button-stale = Эта кнопка устарела; используйте последнее сообщение.
button-bad = Эта кнопка недействительна.
button-join = Присоединиться
button-leave = Уйти
button-start = Начать
button-add-bot = Добавить компьютер
button-add-seat = ➕ Место { $seat }
not-at-table = Вы не играете за этим столом.

## Раздачи
deal-started = Начинается раздача { $deal }.
deal-commitment = Обязательство (SHA-256 зерна): { $commitment }
deal-seed = Зерно: { $seed } (чтобы проверить, сохраните запись игры командой /record и запустите «stikis replay ФАЙЛ»: она заново сдаёт карты из каждого зерна и проверяет каждый ход).
record-carried-pules = Этот стол продолжил лист счёта чата с открытыми пулями (общих: { $common }, личных: { $personal }, веток дерева: { $tree }). В записи для них нет места, поэтому «stikis replay» считает её с пустого листа.
deal-result-header = Итог раздачи { $deal }
deal-declarer = Разыгрывающий: { $name }, { $contract }
deal-all-passed = Все спасовали.
deal-points = { $name }: { $points ->
    [one] { $points } очко в картах
    [few] { $points } очка в картах
    [many] { $points } очков в картах
   *[other] { $points } очка в картах
}
deal-tricks = { $name }: { $tricks ->
    [one] { $tricks } взятка
    [few] { $tricks } взятки
    [many] { $tricks } взяток
   *[other] { $tricks } взятки
}
deal-totals = Итого: { $totals }

## Контракты и игровые слова
contract-take = большой
contract-zole = золе
contract-small-zole = малая золе
contract-galdins = галдиньш
contract-pule = пуля
word-lielais = большой
word-pule = пуля
word-pules = пули
word-galdins = галдиньш
pule-written = { $name }: записана пуля.
pule-removed = { $name } снимает пулю.
pules-open = Открытые пули: { $count }

## Настройки
settings-turn-limit = Время на ход: { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
   *[other] { $seconds } секунд
}
settings-turn-limit-off = Время на ход: без ограничения
settings-auto-start = Начинать автоматически, когда стол заполнен: { $value }
settings-lang = Язык: { $lang }

## Стол и карты золе
zole-title = Золе · раздача { $deal } · сдаёт { $dealer }
zole-sitting-out = Не играют: { $names }
zole-bids = Заявки: { $bids }
zole-contract = Игра: { $contract }, разыгрывает { $name }
zole-trick = Взятка { $n }: { $cards }
zole-last-trick = Прошлая взятка: { $cards }
zole-tricks-taken = Взятки: { $list }
zole-turn = Ход: { $name }
zole-hand = Ваши карты: { $cards }
zole-buried = Снесено: { $cards }
zole-you-sit-out = В этой раздаче вы не играете.
zole-bury-pick = Выберите две карты в снос.
zole-bury-picked = Выбрано: { $cards }; выберите ещё одну (нажмите ещё раз, чтобы отменить).
zole-surrendered = Большой сдался.
zole-tie = 60–60: ничья. На дерево добавлена ветка.
zole-seat-result = { $name }: { $points ->
    [one] { $points } очко
    [few] { $points } очка
    [many] { $points } очков
   *[other] { $points } очка
}, { $tricks ->
    [one] { $tricks } взятка
    [few] { $tricks } взятки
    [many] { $tricks } взяток
   *[other] { $tricks } взятки
}
zole-talon = Прикуп: { $cards }
zole-pules = Пули: общих { $common }{ $personal ->
    [none] {""}
   *[other] , личные: { $personal }
}
zole-tree = Ветки дерева: { $branches }
button-pass = Пас
button-take = Беру (большой)
button-zole = Золе
button-small-zole = Малая золе
button-surrender = Сдаюсь

## Score sheets
sheet-closed = Лист счёта закрыт. Итог: { $totals }
sheet-none = В этом чате нет открытого листа счёта.
sheet-table-open = Сначала остановите стол, затем закройте лист счёта.

## Leaderboards and statistics
top-line = { $rank }. { $name } { $points } ({ $deals ->
    [one] { $deals } раздача
    [few] { $deals } раздачи
    [many] { $deals } раздач
   *[other] { $deals } раздачи
})
top-none = Здесь ещё не засчитано ни одной игры.
stats-line = { $game }: { $points ->
    [one] { $points } очко
    [few] { $points } очка
    [many] { $points } очков
   *[other] { $points } очка
}, { $games ->
    [one] { $games } игра
    [few] { $games } игры
    [many] { $games } игр
   *[other] { $games } игры
}, { $deals ->
    [one] { $deals } раздача
    [few] { $deals } раздачи
    [many] { $deals } раздач
   *[other] { $deals } раздачи
}, { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
    [many] { $wins } побед
   *[other] { $wins } победы
} за большого
stats-pules = , пуль записано { $written }, снято { $removed }
stats-none = У { $name } здесь ещё нет засчитанных игр.

# Отказы в ходе.
refusal-over = Эта раздача закончена; используйте кнопки последней руки.
refusal-bidding-on = Ещё идёт торговля: карты кладут после неё.
refusal-play-on = Торговля закончена: положите карту.
refusal-bury-first = Сначала разыгрывающий сносит две карты; потом начинается игра.
refusal-not-now = Эта кнопка от другого момента игры; используйте последнюю руку.
refusal-not-held = У вас нет { $card }.
refusal-must-follow = Нужно ходить в масть: у вас есть { $card }.
refusal-must-beat = Нужно положить старше в масти хода: у вас есть { $card }.
refusal-must-trump = Нужно положить козырь: у вас есть { $card }.
refusal-bid = Эту заявку сейчас сделать нельзя; выберите одну из кнопок.
refusal-bury = Снесите две разные карты из своей руки.
refusal-surrender = Сейчас сдаться нельзя.
refusal-must-return = Вы должны отдать { $card }.

## Game names, computer players, a lobby after the start
game-name-zole = Золе
game-name-polt = От Полта до Царя
game-command-zole = Открыть стол Золе
computer-name = Компьютер { $seat }
lobby-started = { $game }: игра началась.
table-running = Игра уже идёт: начинать нечего.

## Zole results, explained
zole-last-trick-won = Последняя взятка: { $cards }; её взял { $name }.
zole-galdins-lost = Галдиньш (все спасовали, каждый играет сам за себя). Проиграл { $names }: { $why }.
zole-galdins-nobody = Галдиньш (все спасовали, каждый играет сам за себя): поровну взяток и очков, никто не платит.
zole-galdins-why-tricks = больше всех взяток (при равенстве решают очки)
zole-galdins-why-points = больше всех очков
zole-declarer-won = { $name } выиграл { $contract }: { $points ->
    [one] { $points } очко
    [few] { $points } очка
    [many] { $points } очков
   *[other] { $points } очка
} (нужно 61 или больше).
zole-declarer-lost = { $name } проиграл { $contract }: { $points ->
    [one] { $points } очко
    [few] { $points } очка
    [many] { $points } очков
   *[other] { $points } очка
} (нужно было 61 или больше).
zole-small-won = { $name } выиграл { $contract }: ни одной взятки.
zole-small-lost = { $name } проиграл { $contract }: взята взятка.
zole-talon-picked-up = Прикуп взял { $name }: { $cards }
zole-buried-by = { $name } снёс: { $cards }
zole-talon-untouched = Прикуп (не взят): { $cards }
zole-deal-points = За раздачу: { $list }
zole-score-why = { $band ->
    [jani-won] Яни (шнайдер): 91 очко или больше.
    [bezstikis-won] Безстикис: противники не взяли ни одной взятки.
    [all-won] Все 120 очков.
    [jani-lost] Проигрыш в яни (шнайдер): { $limit } очков или меньше.
    [bezstikis-lost] Безстикис: разыгрывающий не взял ни одной взятки.
    [none-lost] Ни одного очка.
    [surrender] Сдача: базовый проигрыш контракта.
    [small] Малая золе.
    [plain-won] Простой выигрыш.
   *[plain-lost] Простой проигрыш.
} { $won ->
    [yes] Каждый противник платит разыгрывающему { $unit }.
   *[no] Разыгрывающий платит каждому противнику { $unit }.
}
zole-pule-bonus = { $name } снимает общую пулю: каждый другой игрок платит { $name } ещё 1.
zole-pule-own-removed = { $name } снимает свою личную пулю (за неё не платят).
zole-pule-personal-paid = { $name } снимает личную пулю игрока { $owner }: { $owner } платит { $name } { $points }.
zole-pule-personal-written = { $name }: записана личная пуля (проигран большой при открытых пулях).
zole-tree-paid = Дерево выплачивается: каждый победитель получает { $branches } от каждого проигравшего.
