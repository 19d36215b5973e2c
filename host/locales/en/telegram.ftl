# The Telegram bot's own messages (telegram-bot/); the host's are in main.ftl.

telegram-chat-closed = { $name }'s private chat with @{ $bot } is closed. 🂠 shows your hand; on your turn it also says what each number button under the table message does. 💬 opens the private chat.
telegram-choice-none = No action has that number.
telegram-usage-lang = Your language: /lang lv|en|ru · the group's: /lang group lv|en|ru
telegram-usage-settings = Time per move: /settings turn SECONDS|off · start when full: /settings auto on|off · names of computer players by seat: /settings names Jānis, Ilze|off
