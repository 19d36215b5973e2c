# Турниры (латвийский формат: туры, большие очки, пересадка).
tournament-format-deals = { $deals ->
    [one] { $deals } раздача
    [few] { $deals } раздачи
    [many] { $deals } раздач
   *[other] { $deals } раздачи
} за столом в туре
tournament-format-turn = , { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
} на ход
tournament-format-minutes = { $minutes ->
    [one] { $minutes } минута
    [few] { $minutes } минуты
    [many] { $minutes } минут
   *[other] { $minutes } минуты
} на тур
tournament-registration = 🏆 Турнир по золе: { $rounds ->
    [one] { $rounds } тур
    [few] { $rounds } тура
    [many] { $rounds } туров
   *[other] { $rounds } тура
}, { $format }. Запись открыта: нажмите «Присоединиться».
tournament-commitment = Обязательство жеребьёвки (SHA-256 сида, по которому рассадят 1-й тур): { $commitment }
tournament-entered = Записались ({ $count }): { $names }
tournament-nobody = Пока никто не записался.
tournament-created = { $name } открывает турнир по золе.
tournament-joined = { $name } записался.
tournament-late = { $name } записался и играет со следующего тура.
tournament-already-in = Вы уже записаны.
tournament-name-taken = Под именем { $name } уже кто-то записан.
tournament-left = { $name } выбыл из турнира.
tournament-left-mid-round = { $name } выбыл; этот тур за него доигрывает компьютер, и тур засчитывается.
tournament-not-in = Вы не записаны.
tournament-too-few = Для турнира нужно не меньше 3 игроков; записалось { $count }.
tournament-exists = В этом чате уже идёт турнир.
tournament-none = В этом чате нет турнира.
tournament-over = Этот турнир закончен.
tournament-no-computers = Этот турнир только для людей.
tournament-admin-only = Это может только администратор чата или организатор турнира.
tournament-started = Турнир начинается, игроков: { $count }. Сид жеребьёвки: { $seed } (его SHA-256 — обязательство, опубликованное при открытии записи; `stikis tournament verify ФАЙЛ` проверяет весь турнир).
tournament-round = Тур { $round } из { $rounds }:
tournament-table-line = Стол { $table }: { $names }
tournament-your-seat = Тур { $round }: вы играете за столом { $table }, место { $seat }. Карты придут отдельным сообщением.
tournament-table-label = Тур { $round }, стол { $table }
tournament-table-done = Тур { $round }, стол { $table } закончил: { $totals }
tournament-standings = 🏆 Положение после тура { $round } из { $rounds }
tournament-standings-none = 🏆 Положение: ни один тур ещё не закончен
tournament-standing-line = { $rank }. { $name }: { $big ->
    [one] { $big } большое очко
    [few] { $big } больших очка
    [many] { $big } больших очков
   *[other] { $big } больших очка
}, игровых очков { $pm }, { $played ->
    [one] { $played } тур
    [few] { $played } тура
    [many] { $played } туров
   *[other] { $played } тура
}
tournament-withdrawn = (выбыл)
tournament-paused = { $name } приостановил турнир: следующий тур ждёт продолжения.
tournament-resumed = { $name } продолжил турнир.
tournament-not-paused = Турнир не приостановлен.
tournament-cancelled = { $name } отменил турнир; положение остаётся таким, каким было после последнего полного тура.
tournament-finished = 🏆 Турнир закончен. Итоговое положение:
tournament-no-round = В турнире ещё нет законченного тура.
tournament-running = Турнир уже начался.
tournament-bad-options = Турнир открывают так: /tournament [туры] [раздач в туре] [правила], напр. /tournament 3 24 lv; /tournament [туры] [минуты]m для туров по времени; напр. 90s — 90 секунд на ход.
button-pause = Пауза
button-resume = Продолжить
button-cancel = Отменить
# The tournament message's first line once entries have closed: the title and its state.
tournament-title = 🏆 Турнир по золе: { $rounds ->
    [one] { $rounds } тур
    [few] { $rounds } тура
    [many] { $rounds } туров
   *[other] { $rounds } тура
}, { $format }.
tournament-state-round = Идёт тур { $round } из { $rounds }.
tournament-state-paused = Тур { $round } из { $rounds }; турнир приостановлен: следующий тур ждёт продолжения.
tournament-state-finished = Турнир закончен.
tournament-state-cancelled = Турнир отменён.
