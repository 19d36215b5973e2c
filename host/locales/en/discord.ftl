# The Discord bot's own messages (stikis-discord), in English.

discord-dm-closed = { $user }: your direct messages are closed; press 🂠 under the table for your hand.
discord-hand-turn = { $user }: your turn; press 🂠 under the table for your hand.
discord-settings-help = Give turn_limit, auto_start and/or computer_names.
discord-rules =
    Zole: 3–5 players (three play each deal), 26 cards; trumps are all queens, jacks and diamonds. Presets: lv, lv-galdins, rondo, catsatcards, zolite.
    Belote (bazar, classic, head-to-head) and coinche: 32 cards, trumps J 9 A 10 K Q 8 7, teams of two (head-to-head: two players).
    Polt to Tzar: 5–7 players, 52 cards and a joker; ranks from Tzar to Polt, the Tzar names trumps.
    Each deal is committed by the SHA-256 of its seed; the game record (/record) is checked with `stikis replay`.
discord-help =
    Open a table (thread: in a thread of its own): /zole [preset] [players: 3–5] [thread] · /belote [variant: bazar|classic|head-to-head] [target] [must_undertrump] [thread] · /coinche [target] [must_undertrump] [thread] · /polt [players: 5–7] [bowers] [thread]. Buttons: join, add computer player, start, leave; a full table of a game for more players offers one more seat. Your cards come by direct message; if yours are closed, press 🂠 under the table.
    /top [period: day|week|month|season|season N|all] · /stats · /season (admins) · /tournament [options: rounds, deals per round or 45m, 90s a move, preset, bots; or join, leave, start, pause, resume, cancel, standings, record] · /web [new] [public: name] [private] (this community's pages: boards, games, tournaments) · /lang language [scope: me|server] · /record · /settings [turn_limit] [auto_start] [computer_names] (admins) · /stop · /rules
