# The Discord bot's own messages (stikis-discord), in English.

discord-dm-closed = { $user }: your direct messages are closed; press 🂠 under the table for your hand.
discord-hand-turn = { $user }: your turn; press 🂠 under the table for your hand.
discord-settings-help = Give turn_limit, auto_start and/or computer_names.
discord-rules =
    Zole: 3–5 players (three play each deal), 26 cards; trumps are all queens, jacks and diamonds. Presets: lv, lv-galdins, rondo, catsatcards, zolite.
    Belote (bazar, classic, head-to-head) and coinche: 32 cards, trumps J 9 A 10 K Q 8 7, teams of two (head-to-head: two players).
    Polt to Tzar: 5–7 players, 52 cards and a joker; ranks from Tzar to Polt, the Tzar names trumps.
    Each deal is committed by the SHA-256 of its seed; the game record (/record) is checked with `stikis replay`.
discord-help = /zole, /belote, /coinche, /polt open a table (optionally in its own thread); buttons: join, add computer player, start, leave. Your cards come by direct message; if yours are closed, press 🂠 under the table. /top, /stats, /season, /tournament, /web (this community's pages: boards, games, tournaments), /lang, /record, /settings (admins), /stop, /rules.
