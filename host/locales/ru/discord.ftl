# Собственные сообщения бота Discord (stikis-discord) по-русски.

discord-dm-closed = { $user }: ваши личные сообщения закрыты; нажмите 🂠 под столом, чтобы увидеть свои карты.
discord-hand-turn = { $user }: ваш ход; нажмите 🂠 под столом, чтобы увидеть свои карты.
discord-settings-help = Укажите turn_limit, auto_start и/или computer_names.
discord-rules =
    Золе: 3–5 игроков (в каждой раздаче играют трое), 26 карт; козыри — все дамы, валеты и бубны. Пресеты: lv, lv-galdins, rondo, catsatcards, zolite.
    Белот (базар, классический, вдвоём) и коинш: 32 карты, козыри J 9 A 10 K Q 8 7, команды по двое (вдвоём: два игрока).
    Полт до царя: 5–7 игроков, 52 карты и джокер; ранги от царя до полта, царь называет козыри.
    Каждая раздача подтверждается хешем SHA-256 её зерна; запись партии (/record) проверяется командой `stikis replay`.
discord-help =
    Открыть стол (thread: в отдельной ветке): /zole [preset] [players: 3–5] [thread] · /belote [variant: bazar|classic|head-to-head] [target] [must_undertrump] [thread] · /coinche [target] [must_undertrump] [thread] · /polt [players: 5–7] [bowers] [thread]. Кнопки: сесть, компьютерный игрок, начать, уйти; заполненный стол игры, где может быть больше игроков, предлагает ещё одно место. Карты приходят в личные сообщения; если они закрыты, нажмите 🂠 под столом.
    /top [period: day|week|month|season|season N|all] · /stats · /season (администраторы) · /tournament [options: туры, раздач в туре или 45m, 90s на ход, правила, bots; или join, leave, start, pause, resume, cancel, standings, record] · /web [new] [public: название] [private] (страницы сообщества: таблицы, партии, турниры) · /lang language [scope: me|server] · /record · /settings [turn_limit] [auto_start] [computer_names] (администраторы) · /stop · /rules
