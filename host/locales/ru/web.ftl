# Веб-страницы (host/src/web).
web-home = Страницы каждого сообщества открываются по ссылке, которую получает его чат: спросите бота командой /web.
web-not-found-title = Не найдено
web-not-found = Такой страницы нет. Ссылка могла устареть: администратор сообщества может заменить её командой /web new, и тогда в чате будет новая (/web).
web-bad-request-title = Неверный адрес
web-bad-request = В адресе есть то, что сайт не может прочитать (например, параметр указан дважды). Откройте ссылку из чата (/web).
web-unavailable = База данных сейчас не отвечает. Попробуйте снова через несколько секунд.
web-boards = Таблицы
web-period-day = Сегодня
web-period-week = На этой неделе
web-period-month = В этом месяце
web-period-season = Сезон { $n }
web-period-all = За всё время
web-points = { $game }: очки
web-ratings = { $game }: рейтинги
web-col-player = Игрок
web-col-points = Очки
web-col-deals = Раздачи
web-col-rating = Рейтинг
web-col-games = Игры
web-no-boards = За это время здесь не закончилась ни одна раздача.
web-games = Последние игры
web-no-games = Здесь ещё не закончилась ни одна игра.
web-game-line = { $game }, { $date } { $time } UTC: { $players } ({ $deals ->
    [one] { $deals } раздача
    [few] { $deals } раздачи
   *[many] { $deals } раздач
})
web-deal = Раздача { $n }
web-dealer = Сдаёт: { $name }
web-prev = ◀ Назад
web-next = Дальше ▶
web-keys = Клавиши: ← и → листают раздачу, Home и End ведут к её началу и концу.
web-step-dealt = Карты, как они сданы.
web-act-play = { $name } ходит { $card }.
web-act-bid = { $name } заявляет: { $what }.
web-act-other = { $name }: { $what }.
web-act-bury = { $name } сносит { $cards }.
web-act-surrender = { $name } сдаётся.
web-act-give = { $name } отдаёт { $card }.
web-act-return = { $name } возвращает { $card }.
web-act-trump = { $name } называет козыри: { $suit }.
web-talon = Прикуп
web-talon-taken = { $name } взял прикуп.
web-buried = Снос { $name }
web-turned = Открытая карта
web-sits-out = в этой сдаче не играет
web-told = Как прошла сдача
web-trick-won = { $name } берёт взятку.
web-trumps = У козырей золотая рамка; у карты, которая берёт взятку, зелёная с ✔.
web-seed = Зерно
web-commitment = Обязательство (SHA-256 зерна, опубликовано до раздачи)
web-checked = Проверено: зерно сдаёт именно эти карты, и каждый ход разрешён.
web-check-failed = Запись не проходит проверку: { $reason }
web-replay = Проверьте сами по записи:
web-download = Скачать запись
web-score = Счёт
web-contract = Контракт
web-declarer = Разыгрывающий
web-contract-tie = 60–60, ничья
web-contract-redeal = все пасовали
web-surrendered = сдался
web-col-pules = Пули
web-pules-common = общих { $n }
web-totals = Итого
web-no-deals = В этой игре не закончилась ни одна раздача.
# В чате.
web-off = У этого бота нет веб-страниц (оператор запускает его с --web-listen и --web-url).
web-link = Страницы этого сообщества (таблицы, игроки, турниры, законченные игры): { $url }
    Держите ссылку между собой: её может открыть каждый, у кого она есть. Администратор создаёт новую командой /web new.
web-link-new = { $name } создал(а) новую ссылку на страницы сообщества; старая больше не открывается: { $url }
web-listed = Сообщества, чьи страницы открыты всем:
web-public-usage = /web public <название> помещает страницы этого сообщества на главную страницу сайта под этим названием (до 60 знаков), чтобы их мог найти любой; /web private убирает их оттуда и создаёт новую ссылку. Только для администраторов.
web-public-on = { $name } открыл(а) страницы этого сообщества всем: главная страница сайта показывает их как «{ $listed }». /web private убирает их. { $url }
web-public-off = { $name } убрал(а) страницы этого сообщества с главной страницы сайта и создал(а) новую ссылку; старая больше не открывается: { $url }
web-see-boards = Все таблицы и игры: { $url }
web-see-game = Игра, карта за картой: { $url }
# Анализ с открытыми картами.
web-dd = С открытыми картами, против лучшей карты:
web-dd-cost = Эта карта потеряла { $n }.
web-dd-summary = Потеряно на ошибках (все карты открыты)
web-col-lost = Потеряно
web-col-mistakes = Ошибки / карты
web-dd-about = Каждая карта сравнивается с лучшей картой, что была у игрока, когда все карты открыты и все дальше играют безупречно: стороне разыгрывающего считаются очки (в малой золе — взятки), противникам — очки, которые они ему не отдают.
web-dd-pending = Анализ этой раздачи считается; перезагрузите страницу чуть позже.
web-dd-none = Для этой раздачи анализа нет (не было розыгрыша, или его нет для этой игры или контракта).
# Турниры.
web-see-tournament = Положение и рассадка, вживую: { $url }
web-tournaments = Турниры
web-tournament-title = Турнир { $n }
web-tournament-line = Турнир { $n }, { $date }: { $what }
web-status-registration = идёт запись
web-status-on = идёт
web-status-running = играется тур { $round } из { $rounds }
web-status-paused = пауза перед туром { $round } из { $rounds }
web-status-finished = завершён
web-status-cancelled = отменён
web-standings = Положение после тура { $round } из { $rounds }
web-no-standings = Ни один тур ещё не закончен.
web-col-big = Большие очки
web-col-pm = +/−
web-col-rounds = Туры
web-entered = Записались ({ $count }): { $names }
web-seating = Тур { $round }
web-table-n = Стол { $n }
web-table-playing = играют, сдача { $deal }
web-table-waiting = сейчас начнётся
web-table-closed = партия
web-refreshing = Пока турнир идёт, страница обновляется каждые 30 секунд.
# Страница игрока.
web-player-rating = { $game }: рейтинг { $rating } после { $count ->
    [one] { $count } игры
    [few] { $count } игр
    [many] { $count } игр
   *[other] { $count } игр
}
web-player-stats = { $game }: { $points ->
    [one] { $points } очко
    [few] { $points } очка
    [many] { $points } очков
   *[other] { $points } очка
}, { $count ->
    [one] { $count } игра
    [few] { $count } игры
    [many] { $count } игр
   *[other] { $count } игры
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
web-rating-chart = { $game }: рейтинг во времени
web-no-history = Ещё нет ни одной рейтинговой игры.
web-recent = Последние игры

## The live table (/play)
play-title = { $game }, стол { $table }
play-deal = Раздача { $deal }
play-your-turn = Ваш ход
play-turn-of = Ходит { $name }
play-spectator = Вы наблюдаете: стол таким, каким его видит группа.
play-last-trick = Последняя взятка, взял(а) { $name }
play-trick = На столе
play-result = Последняя раздача
play-contract = Контракт: { $contract }, { $name }
play-contract-open = Контракт: { $contract }
play-bids = Торговля: { $bids }
play-announced = Объявлено: { $list }
play-deal-ended = Раздача { $deal } окончена
play-table-message = Сообщение стола
play-totals = Итого
play-connecting = Подключение…
play-lost = Связь потеряна: переподключение…
play-over = Этот стол закрыт.
play-denied-title = Эта ссылка не открывает стол
play-forged = Эту ссылку дал не бот, или она изменена. Попросите у бота свою ссылку снова (/play в чате стола).
play-expired = Срок этой ссылки истёк. Попросите у бота новую (/play в чате стола).
play-not-yours = Этот стол вам не открыт: его могут открыть только игроки и участники его чата.
play-bad-request = Страница отправила то, чего не должна была. Обновите страницу; если это повторится, попросите у бота свою ссылку снова (/play в чате стола).
play-link = Ваше место за живым столом (личная ссылка: не передавайте её; действует 24 часа): { $url }
play-link-watch = Живой стол для наблюдения (места за ним у вас нет; действует 24 часа): { $url }
play-link-off = Живой стол у этого бота не настроен (оператор указывает --web-url).
play-link-closed-chat = Откройте личный чат со мной и нажмите Start: ссылка личная, поэтому я отправляю её только туда.
play-open = Открыть стол
activity-choose = Здесь открыто несколько столов: выберите один.
activity-no-table = Здесь нет открытого стола. Начните игру командой в этом канале, затем откройте активность снова.
play-platform-unavailable = Бот сейчас не может связаться с платформой чата: ничего не изменилось. Попробуйте ещё раз чуть позже.
