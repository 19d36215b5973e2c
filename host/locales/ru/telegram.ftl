# Собственные сообщения Telegram-бота (telegram-bot/); сообщения хоста — в main.ftl.

telegram-chat-closed = Личный чат игрока { $name } с @{ $bot } закрыт. 🂠 показывает ваши карты, а в ваш ход ещё и что делает каждая кнопка с номером под сообщением стола. 💬 открывает личный чат.
telegram-choice-none = Хода с таким номером нет.
telegram-usage-lang = Ваш язык: /lang lv|en|ru · язык группы: /lang group lv|en|ru
telegram-usage-settings = Время на ход: /settings turn СЕКУНДЫ|off · начинать, когда стол заполнен: /settings auto on|off · имена компьютерных игроков по местам: /settings names Jānis, Ilze|off
telegram-hands-group = Карты на руке: в группе, каждому видны только свои. /hands private: в личных чатах с ботом (админам).
telegram-hands-private = Карты на руке: в личном чате каждого игрока с ботом. /hands group: в группе, каждому видны только свои (админам).
telegram-usage-hands = Где карты на руке: /hands group|private (админам; в группе).
