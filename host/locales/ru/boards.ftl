# Таблицы по периодам и сезонам, рейтинги.
top-rating-title = { $game }, рейтинг:
top-rating-line = { $rank }. { $name } { $rating } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
    [many] { $games } игр
   *[other] { $games } игры
})
top-period-day = { $game }, сегодня:
top-period-week = { $game }, эта неделя:
top-period-month = { $game }, этот месяц:
top-period-season = { $game }, сезон { $n }:
top-period-all = { $game }, за всё время:
top-hint = Очки по периодам: /top day, week, month, season (или season N) или all.
top-none-period = За это время здесь не засчитано ни одной раздачи.
top-no-season = Здесь нет сезона { $n }.
top-usage = /top показывает рейтинги; /top day, week, month, season [N] или all — очки за этот период.
stats-rating = { $game }: рейтинг { $rating } ({ $change } за последнюю игру)
season-started = { $name } начал сезон { $n }. Старый остаётся в таблице: /top season { $prev }.
settings-computer-names = Компьютерных игроков зовут, по местам: { $names }
settings-computer-names-off = У компьютерных игроков снова обычные имена.
store-unavailable = Бот сейчас не может связаться со своей базой данных: ничего не изменено. Попробуйте ещё раз через минуту.
press-try-again = Это не удалось вовремя: ничего не изменено. Пожалуйста, нажмите ещё раз.
press-unsure = База данных перестала отвечать, пока сохранялся ваш ход, поэтому пока неизвестно, принят ли он. Вам сообщат здесь, как только она ответит.
press-stood-later = { $name }: база данных снова доступна, и ваш ход всё-таки принят.
press-lost-later = { $name }: база данных снова доступна, и ваш ход не принят. Пожалуйста, сделайте его ещё раз.
