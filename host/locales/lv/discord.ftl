# Discord bota paša ziņas (stikis-discord) latviski.

discord-dm-closed = { $user }: tavas privātās ziņas ir slēgtas; savas kārtis redzēsi, nospiežot 🂠 zem galda.
discord-hand-turn = { $user }: tavs gājiens; savas kārtis redzēsi, nospiežot 🂠 zem galda.
discord-settings-help = Norādi turn_limit, auto_start un/vai computer_names.
discord-rules =
    Zole: 3–5 spēlētāji (katrā partijā spēlē trīs), 26 kārtis; trumpji ir visas dāmas, kalpi un kārava. Noteikumu kopas: lv, lv-galdins, rondo, catsatcards, zolite.
    Belote (bazārs, klasiskā, divatā) un coinche: 32 kārtis, trumpji J 9 A 10 K Q 8 7, divu spēlētāju komandas (divatā: divi spēlētāji).
    Polt līdz caram: 5–7 spēlētāji, 52 kārtis un džokers; kārtas no cara līdz poltam, cars nosauc trumpjus.
    Katras partijas dalīšana ir apliecināta ar tās sēklas SHA-256; spēles ierakstu (/record) pārbauda ar `stikis replay`.
discord-help =
    Atvērt galdu (thread: savā pavedienā): /zole [preset] [players: 3–5] [thread] · /belote [variant: bazar|classic|head-to-head] [target] [must_undertrump] [thread] · /coinche [target] [must_undertrump] [thread] · /polt [players: 5–7] [bowers] [thread]. Pogas: pievienoties, pievienot datoru, sākt, iziet; pilns galds spēlei, ko var spēlēt vairāk, piedāvā vēl vienu vietu. Kārtis pienāk privātā ziņā; ja tās ir slēgtas, spied 🂠 zem galda.
    /top [period: day|week|month|season|season N|all] · /stats · /season (administratoriem) · /tournament [options: kārtas, partijas kārtā vai 45m, 90s gājienam, noteikumi, bots; vai join, leave, start, pause, resume, cancel, standings, record] · /web [new] [public: nosaukums] [private] (kopienas lapas: tabulas, spēles, turnīri) · /lang language [scope: me|server] · /record · /settings [turn_limit] [auto_start] [computer_names] (administratoriem) · /stop · /rules
