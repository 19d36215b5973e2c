# The Telegram bot's own messages (telegram-bot/); the host's are in main.ftl.

telegram-chat-closed = { $name }'s private chat with @{ $bot } is closed. 🂠 shows your hand; on your turn it also says what each number button under the table message does. 💬 opens the private chat.
telegram-choice-none = No action has that number.
telegram-usage-lang = Your language: /lang lv|en|ru · the group's: /lang group lv|en|ru
telegram-usage-settings = Time per move: /settings turn SECONDS|off · start when full: /settings auto on|off · names of computer players by seat: /settings names Jānis, Ilze|off
telegram-hands-group = Hands: in the group, each seen by its player alone. /hands private: in private chats with the bot (admins).
telegram-hands-private = Hands: in each player's private chat with the bot. /hands group: in the group, each seen by its player alone (admins).
telegram-usage-hands = Where hands go: /hands group|private (admins; in a group).
